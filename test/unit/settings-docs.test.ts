import { readFileSync } from 'node:fs';
import path from 'node:path';
import { configKeys, envExample } from '../../src/config.js';
import { ROOT } from '../support/processes.js';

describe('documented settings', () => {
  it('.env.example is the one generated from the config schema (node dist/src/cli.js settings > .env.example)', () => {
    expect(readFileSync(path.join(ROOT, '.env.example'), 'utf8')).toBe(envExample());
  });

  it('the README configuration table lists every setting', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const missing = configKeys.filter((key) => !readme.includes(`| \`${key}\` |`));
    expect(missing).toEqual([]);
  });
});
