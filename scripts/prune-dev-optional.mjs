// Run after `npm prune --omit=dev` (or `npm ci --omit=dev`) for the production install: removes what npm
// keeps there although no production package needs it. npm keeps a dev dependency that a production
// package also names as an *optional* peer (package-lock.json's devOptional): valibot (@bull-board/api's)
// names typescript, @ladjs/consolidate (the Koa adapter's views) names handlebars and @babel/core,
// @ladjs/koa-views names @types/koa; and with them whatever only they depend on (handlebars's uglify-js).
// npm drops them only with --omit=optional as well, which would also drop the real optional packages the
// service runs with (recheck's and msgpackr's native binaries). A package never needs an optional peer to
// work, and the image must hold no compiler.
//
// What stays is what the root's dependencies and optionalDependencies reach, through each package's
// dependencies, optionalDependencies and non-optional peerDependencies, resolved in package-lock.json as
// Node resolves them (the nearest node_modules up the tree). The node_modules/.bin links into what goes,
// and npm's hidden lockfile, are brought in line.
// Usage: node scripts/prune-dev-optional.mjs [folder with package-lock.json and node_modules]
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? '.');
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const packages = lock.packages ?? {};

/** The lockfile location `name` resolves to from the package at `from` ('' for the root), if any. */
function resolveFrom(from, name) {
  for (let dir = from; ; ) {
    const candidate = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (dir === '') return undefined;
    const parent = dir.lastIndexOf('/node_modules/');
    dir = parent === -1 ? '' : dir.slice(0, parent);
  }
}

function neededBy(location) {
  const entry = packages[location];
  const optionalPeers = new Set(Object.entries(entry.peerDependenciesMeta ?? {}).filter(([, meta]) => meta.optional).map(([name]) => name));
  const names = [
    ...Object.keys(entry.dependencies ?? {}),
    ...Object.keys(entry.optionalDependencies ?? {}),
    ...(location === '' ? [] : Object.keys(entry.peerDependencies ?? {}).filter((name) => !optionalPeers.has(name))),
  ];
  return names.map((name) => resolveFrom(location, name)).filter((found) => found !== undefined);
}

const reached = new Set(['']);
const pending = [''];
while (pending.length > 0) {
  for (const location of neededBy(pending.pop())) {
    if (reached.has(location)) continue;
    reached.add(location);
    pending.push(location);
  }
}

/** Whether `location` is `prefix` or inside it. */
const within = (location, prefix) => location === prefix || location.startsWith(`${prefix}/`);
const unneeded = Object.keys(packages).filter((location) => !reached.has(location));
const removed = unneeded.filter((location) => existsSync(path.join(root, location)));
for (const location of removed) rmSync(path.join(root, location), { recursive: true, force: true });

// The bin links of every node_modules/.bin left: those pointing into a removed package dangle now.
for (const folder of ['node_modules/.bin', ...[...reached].map((location) => `${location}/node_modules/.bin`)]) {
  const dir = path.join(root, folder);
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir)) {
    const link = path.join(dir, name);
    if (!lstatSync(link).isSymbolicLink()) continue;
    try {
      statSync(link);
    } catch {
      rmSync(link, { force: true });
    }
  }
}

// npm's hidden lockfile is its record of node_modules; it is trusted while it is newer than every folder.
const hidden = path.join(root, 'node_modules', '.package-lock.json');
if (existsSync(hidden)) {
  const record = JSON.parse(readFileSync(hidden, 'utf8'));
  for (const location of Object.keys(record.packages ?? {})) {
    if (unneeded.some((gone) => within(location, gone))) delete record.packages[location];
  }
  writeFileSync(hidden, `${JSON.stringify(record, null, 2)}\n`);
}

const outermost = removed.filter((location) => !removed.some((other) => other !== location && within(location, other)));
const names = outermost.map((location) => location.replace(/^.*node_modules\//, ''));
process.stdout.write(`Removed ${names.length} package(s) no production package needs${names.length ? `: ${names.join(', ')}` : ''}\n`);
