// npm run lint:openapi: writes both areas' OpenAPI documents (node dist/src/cli.js openapi) into a
// temporary folder and lints them with Redocly (redocly.yaml), offline: no telemetry, no update check.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'openapi-'));
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' };

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.error) throw result.error;
  return result;
}

try {
  const files = [];
  for (const area of ['resolver', 'registry']) {
    const result = run(process.execPath, ['dist/src/cli.js', 'openapi', '--area', area]);
    if (result.status !== 0) {
      process.stderr.write(result.stderr);
      throw new Error(`openapi --area ${area} failed`);
    }
    const file = path.join(dir, `${area}.openapi.json`);
    writeFileSync(file, result.stdout);
    files.push(file);
  }
  const lint = run(process.execPath, [path.join(root, "node_modules/@redocly/cli/bin/cli.js"), "lint", "--format=stylish", "--config", path.join(root, "redocly.yaml"), ...files], {
    stdio: 'inherit',
  });
  process.exitCode = lint.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
