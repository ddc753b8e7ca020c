// The layering rules of the README's Layout section, checked on the import graph of src/ and workers/, so a
// newcomer who adds an import across a boundary learns it from a failing test rather than from review.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

const importPattern = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Project-relative file → the project files it imports, and the packages it imports. */
function importGraph(): Map<string, { files: string[]; packages: string[] }> {
  const graph = new Map<string, { files: string[]; packages: string[] }>();
  for (const file of [...sourceFiles('src'), ...sourceFiles('workers'), ...sourceFiles('migrations')]) {
    const text = readFileSync(join(root, file), 'utf8');
    const files: string[] = [];
    const packages: string[] = [];
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2];
      if (specifier === undefined) continue;
      if (specifier.startsWith('.')) {
        // `./x.js` names x.ts, or x.tsx for a template.
        const target = relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, '.ts');
        files.push(existsSync(join(root, target)) || !existsSync(join(root, `${target}x`)) ? target : `${target}x`);
      } else {
        packages.push(specifier);
      }
    }
    graph.set(file, { files, packages });
  }
  return graph;
}

const graph = importGraph();

function importsOf(predicate: (file: string) => boolean): Array<[string, string]> {
  const edges: Array<[string, string]> = [];
  for (const [file, { files }] of graph) {
    if (!predicate(file)) continue;
    for (const target of files) edges.push([file, target]);
  }
  return edges;
}

/** Tarjan's strongly connected components; every component of more than one file is an import loop. */
function importLoops(): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file)?.files ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) loops.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return loops;
}

describe('the import graph of src/ and workers/', () => {
  test('every import names a file that exists', () => {
    const missing = importsOf(() => true).filter(([, target]) => !graph.has(target));
    expect(missing).toEqual([]);
  });

  test('has no import loop', () => {
    expect(importLoops()).toEqual([]);
  });

  test('src/lib holds leaves: its files import nothing of the project outside src/lib', () => {
    const outward = importsOf((file) => file.startsWith('src/lib/')).filter(([, target]) => !target.startsWith('src/lib/'));
    expect(outward).toEqual([]);
  });

  test('src/core is pure: nothing of src/http, src/db, the envelope or a framework', () => {
    const inward = importsOf((file) => file.startsWith('src/core/')).filter(
      ([, target]) => !target.startsWith('src/core/') && !target.startsWith('src/lib/'),
    );
    expect(inward).toEqual([]);
    const frameworks = [...graph]
      .filter(([file]) => file.startsWith('src/core/'))
      .flatMap(([file, { packages }]) =>
        packages.filter((name) => /^(koa|@koa\/|knex|objection|pg|ioredis|bullmq)/.test(name)).map((name) => [file, name]),
      );
    expect(frameworks).toEqual([]);
  });

  test('src/db imports nothing above it (only src/db, src/lib, src/core, migrations and the configuration)', () => {
    const upward = importsOf((file) => file.startsWith('src/db/')).filter(
      ([, target]) =>
        !target.startsWith('src/db/') && !target.startsWith('src/lib/') && !target.startsWith('src/core/') &&
        !target.startsWith('migrations/') &&
        target !== 'src/config.ts',
    );
    expect(upward).toEqual([]);
  });

  test('no route file imports knex, objection or a database module', () => {
    const queries = [...graph]
      .filter(([file]) => file.endsWith('.routes.ts'))
      .flatMap(([file, { files, packages }]) => [
        ...packages.filter((name) => name === 'knex' || name === 'objection').map((name) => [file, name]),
        ...files.filter((target) => target.startsWith('src/db/')).map((target) => [file, target]),
      ]);
    expect(queries).toEqual([]);
  });

  test('workers import only src/queue, src/dataset, src/link-check, src/db, src/lib, src/bootstrap, src/metrics, the configuration and their own folder', () => {
    const allowed = [
      'src/queue/', 'src/dataset/', 'src/db/', 'src/lib/', 'src/bootstrap/', 'src/core/', 'src/statistics/', 'src/notifications/', 'src/link-check/', 'src/metrics/',
      'workers/',
    ];
    const reaching = importsOf((file) => file.startsWith('workers/')).filter(
      ([, target]) => target !== 'src/config.ts' && !allowed.some((prefix) => target.startsWith(prefix)),
    );
    expect(reaching).toEqual([]);
  });

  test('one ajv instance: only src/lib/json-schema.ts makes one or imports the ajv package', () => {
    const sources = ['src', 'workers', 'bench', 'scripts'].flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && /\.(tsx?|mjs|js)$/.test(entry.name))
        .map((entry) => relative(root, join(entry.parentPath, entry.name))),
    );
    const instances = sources.filter((file) => /new Ajv\w*\(/.test(readFileSync(join(root, file), 'utf8')));
    expect(instances).toEqual(['src/lib/json-schema.ts']);
    const importers = [...graph].filter(([, { packages }]) => packages.some((name) => name === 'ajv' || name.startsWith('ajv/'))).map(([file]) => file);
    expect(importers).toEqual(['src/lib/json-schema.ts']);
  });

  // src/registry: one folder per feature, standing on the shared model (src/registry/model) and the lower
  // layers; app.ts and services.ts at the top compose them. registration's subfolders are registration's.
  const REGISTRY = 'src/registry/';
  const MODEL = 'src/registry/model/';
  const registryFeatureOf = (file: string): string | undefined => {
    if (!file.startsWith(REGISTRY) || file.startsWith(MODEL)) return undefined;
    const parts = file.slice(REGISTRY.length).split('/');
    return parts.length > 1 ? parts[0] : undefined;
  };
  const LOWER_LAYERS = [
    'src/core/', 'src/db/', 'src/http/', 'src/lib/', 'src/web/', 'src/queue/', 'src/notifications/', 'src/metrics/',
    'src/dataset/', 'src/statistics/', 'src/link-check/', 'migrations/',
  ];
  const isLowerLayer = (target: string): boolean => target === 'src/config.ts' || LOWER_LAYERS.some((prefix) => target.startsWith(prefix));

  test('a registry feature imports only its own folder, the shared model and the lower layers, never another feature', () => {
    const reaching = importsOf((file) => registryFeatureOf(file) !== undefined).filter(
      ([file, target]) => registryFeatureOf(target) !== registryFeatureOf(file) && !target.startsWith(MODEL) && !isLowerLayer(target),
    );
    expect(reaching).toEqual([]);
  });

  test('the shared registry model imports no feature (only itself and the lower layers)', () => {
    const upward = importsOf((file) => file.startsWith(MODEL)).filter(([, target]) => !target.startsWith(MODEL) && !isLowerLayer(target));
    expect(upward).toEqual([]);
  });

  test('HttpError is thrown only in src/http: everything else throws a DomainError, which the one error mapping answers', () => {
    const throwing = [...graph.keys()]
      .filter((file) => !file.startsWith('src/http/'))
      .filter((file) => /throw new HttpError\b/.test(readFileSync(join(root, file), 'utf8')));
    expect(throwing).toEqual([]);
  });

  test("the README's Layout section names every folder of src/ and the top level, and no folder that is gone", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const layout = /## Layout\n+```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const listed = [...layout.matchAll(/^(\s*)([a-z-]+)\/\s/gm)].map((m) => (m[1] === '' ? m[2]! : `src/${m[2]!}`));
    const srcFolders = readdirSync(join(root, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `src/${entry.name}`);
    for (const folder of [...srcFolders, 'workers', 'migrations', 'test', 'bench']) expect(listed).toContain(folder);
    for (const folder of listed) expect(existsSync(join(root, folder))).toBe(true);
  });
});
