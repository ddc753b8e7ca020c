import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { projectRoot } from './project-root.js';

/**
 * The compiled worker-thread script `file` beside the module at `moduleUrl` (its import.meta.url).
 * worker_threads run JavaScript only, so when that module itself runs from the TypeScript sources (jest
 * through SWC), the compiled copy under dist/ is used instead and the tests need a build first, which
 * `npm test` does. An `eval` string would avoid the build but would put the worker's code out of reach of the
 * type checker and the linter.
 */
export function locateCompiledWorker(moduleUrl: string, file: string): URL {
  const here = fileURLToPath(moduleUrl);
  if (!here.endsWith('.ts')) return new URL(`./${file}`, moduleUrl);
  const root = projectRoot();
  const compiled = path.join(root, 'dist', path.relative(root, path.dirname(here)), file);
  if (!existsSync(compiled)) {
    throw new Error(`${path.basename(here)} runs its worker from ${compiled}, which is missing: run npm run build first`);
  }
  return pathToFileURL(compiled);
}
