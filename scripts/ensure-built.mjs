// Runs before every npm script that starts a part or a tool, and before the tests. In a clone with dev
// dependencies it builds when a source changed since the last build, and says nothing when none did (a
// stamp file and the modification times of the compiler's inputs: a few milliseconds, where even an
// incremental `tsc` with nothing to do takes about 10 s of CPU). Where no TypeScript compiler is installed
// (the Docker image, `npm ci --omit=dev`) it runs the build that is there, and says so if there is none.
//
//   node scripts/ensure-built.mjs             build if a source changed since the last build
//   node scripts/ensure-built.mjs --always    build now (npm run build)
//   node scripts/ensure-built.mjs --no-check  emit without type-checking, for a caller that has just run
//                                             `npm run typecheck` over the same sources (.ci/run)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const STAMP = path.join(root, 'dist', '.built');
// tsconfig.json's "include", and what decides how they compile.
const INPUT_FOLDERS = ['src', 'workers', 'migrations', 'seeds', 'bench'];
const INPUT_FILES = ['tsconfig.json', 'package-lock.json'];

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  tsc = undefined;
}

/** The newest modification time among the inputs; folders count, so a deleted or renamed file does too. */
function newestInput() {
  let newest = 0;
  const visit = (file) => {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat) return;
    newest = Math.max(newest, stat.mtimeMs);
    if (stat.isDirectory()) for (const entry of readdirSync(file)) visit(path.join(file, entry));
  };
  for (const name of [...INPUT_FOLDERS, ...INPUT_FILES]) visit(path.join(root, name));
  return newest;
}

function upToDate() {
  const stamp = statSync(STAMP, { throwIfNoEntry: false });
  return stamp !== undefined && existsSync(path.join(root, 'dist', 'src', 'cli.js')) && stamp.mtimeMs >= newestInput();
}

if (tsc && existsSync(path.join(root, 'tsconfig.json'))) {
  if (!args.has('--always') && !args.has('--no-check') && upToDate()) process.exit(0);
  // Taken before compiling: a source saved while tsc runs is newer than the stamp, so the next call builds.
  const started = new Date();
  if (!existsSync(path.join(root, 'dist'))) process.stderr.write('Building dist/ from the TypeScript sources (the first time takes a minute)…\n');
  // tsc's incremental record says what it last wrote, not what is still there: with the output deleted
  // (by hand, by a clean) it would answer "up to date" and write nothing. Without the output, no record.
  if (!existsSync(path.join(root, 'dist', 'src', 'cli.js'))) rmSync(path.join(root, 'dist', 'tsconfig.tsbuildinfo'), { force: true });
  const flags = ['-p', 'tsconfig.json', '--incremental', ...(args.has('--no-check') ? ['--noCheck'] : [])];
  const built = spawnSync(process.execPath, [tsc, ...flags], { cwd: root, stdio: 'inherit' });
  if (built.status === 0) writeFileSync(STAMP, `${started.toISOString()}\n`);
  process.exit(built.status ?? 1);
}
if (!existsSync(path.join(root, 'dist', 'src', 'cli.js'))) {
  process.stderr.write(
    'There is no build (dist/) and no TypeScript compiler to make one: run `npm ci` (dev dependencies included), then `npm run build`.\n',
  );
  process.exit(1);
}
