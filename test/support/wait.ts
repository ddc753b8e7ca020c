/** Not there yet: `probe` answers one of these until what it awaits has happened. */
type NotYet = undefined | null | false;

export interface WaitOptions {
  timeoutMs: number;
  /** What is awaited, for the message when it does not happen. */
  what: string;
  /** 50 ms by default: tests that time how soon something shows need a fine grain. */
  everyMs?: number;
}

/**
 * Calls `probe` every `everyMs` until it answers something other than undefined, null or false, and resolves
 * to that. A probe that throws is called again (a server still starting refuses connections); after
 * `timeoutMs` it fails naming what was awaited and the last error.
 */
export async function waitFor<T>(probe: () => Promise<T | NotYet> | T | NotYet, options: WaitOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      throw new Error(`${options.what} did not happen within ${options.timeoutMs} ms${lastError ? `: ${String(lastError)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 50));
  }
}

/**
 * Resolves to what `promise` resolves to, or fails naming `what` once `timeoutMs` has passed without it: the
 * deadline of an "eventually" for a single answer, as `waitFor` is for a polled condition. Pick it far beyond
 * how long the answer should take (the wrong behaviour it guards against, such as a 10 s pool timeout, beyond
 * it): it is no measure of speed.
 */
export async function settlesWithin<T>(promise: Promise<T>, options: Omit<WaitOptions, 'everyMs'>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${options.what} did not happen within ${options.timeoutMs} ms`)), options.timeoutMs);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
