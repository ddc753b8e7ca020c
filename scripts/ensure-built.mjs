// Runs before every npm script that starts a part or a tool. In a clone with dev dependencies it builds
// (incrementally, so it is quick when nothing changed); where no TypeScript compiler is installed (the
// Docker image, `npm ci --omit=dev`) it runs the build that is there, and says so if there is none.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  tsc = undefined;
}
if (tsc && existsSync(path.join(root, 'tsconfig.json'))) {
  const built = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--incremental'], { cwd: root, stdio: 'inherit' });
  process.exit(built.status ?? 1);
}
if (!existsSync(path.join(root, 'dist', 'src', 'cli.js'))) {
  process.stderr.write(
    'There is no build (dist/) and no TypeScript compiler to make one: run `npm ci` (dev dependencies included), then `npm run build`.\n',
  );
  process.exit(1);
}
