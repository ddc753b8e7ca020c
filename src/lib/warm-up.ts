/**
 * What a serving process loads before it listens. Features load their heavy packages (got, the MCP SDK,
 * bull-board, n3, jose, openid-client, recheck) on first use, so a test file that builds an area in-process
 * pays only for what its requests use; but loading one holds the event loop for 100–250 ms, which in a
 * serving process would fall on its first request that needs it. So each such loader is registered here
 * when its module is evaluated, and the serving entries (resolver, registry, satellite) `await warmUp()`
 * before they listen, the worker before it takes jobs: a process warms exactly what it imported.
 */
const loaders = new Set<() => unknown>();

/** Registers `load` to run at warm-up; a process that never warms up (a test) runs it on first use only. */
export function warmUpWith(load: () => unknown): void {
  loaders.add(load);
}

/**
 * Loads the modules one after the other. Jest's ES module runtime fails a dynamic import whose module is still
 * being linked by another one under way ("request for 'zod/v4' is not in cache", jestjs/jest#11434), so a
 * loader of several modules that share packages must not import them at once.
 */
export async function importInTurn<T extends readonly unknown[]>(...loads: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
  const modules: unknown[] = [];
  for (const load of loads) modules.push(await load());
  return modules as unknown as T;
}

// The last first-use load under way: each waits for the one before (its outcome, whatever it was), since two
// loaders may share packages (openid-client and jose, say) and meet jest's failure above if run at once. So a
// module loaded this way must not itself await another first-use load as it is evaluated (a top-level await):
// that load would wait for this one.
let lastLoad: Promise<unknown> = Promise.resolve();

function inTurn<T>(load: () => Promise<T>): Promise<T> {
  const loading = lastLoad.then(load, load);
  lastLoad = loading.catch(() => undefined);
  return loading;
}

/**
 * `load` (a dynamic import) run once, on the first call or at warm-up, whichever comes first; every call
 * answers the same promise. `warm: false` leaves the registering to the caller, for a package only some
 * settings use (warmUpWith the loader where the feature is set up).
 */
export function loadOnFirstUse<T>(load: () => Promise<T>, { warm = true }: { warm?: boolean } = {}): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  const get = (): Promise<T> => (loaded ??= inTurn(load));
  if (warm) warmUpWith(get);
  return get;
}

/** Runs every registered loader, one after the other; a serving process awaits it before it serves. */
export async function warmUp(): Promise<void> {
  for (const load of loaders) await load();
}
