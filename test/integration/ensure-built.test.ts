import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../support/processes.js';

const run = promisify(execFile);

/**
 * scripts/ensure-built.mjs runs before every npm script: it must build when a source changed and do nothing
 * at all otherwise. Run here on a project of one source file (its own copy of the script, the real compiler
 * through a node_modules link), so that the real dist/ is never touched.
 */
describe('scripts/ensure-built.mjs', () => {
  let project: string;
  const source = () => path.join(project, 'src', 'cli.ts');
  const ensureBuilt = async () => run(process.execPath, [path.join(project, 'scripts', 'ensure-built.mjs')], { cwd: project });
  /** Every file under dist/ with its modification time. */
  const distTimes = (dir = path.join(project, 'dist')): Record<string, number> =>
    Object.fromEntries(
      readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .map((name) => path.join(dir, name))
        .filter((file) => statSync(file).isFile())
        .map((file) => [path.relative(project, file), statSync(file).mtimeMs]),
    );

  beforeAll(() => {
    project = mkdtempSync(path.join(tmpdir(), 'ensure-built-'));
    mkdirSync(path.join(project, 'scripts'));
    copyFileSync(path.join(ROOT, 'scripts', 'ensure-built.mjs'), path.join(project, 'scripts', 'ensure-built.mjs'));
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'));
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', outDir: 'dist', rootDir: '.', types: [] }, include: ['src'] }),
    );
    mkdirSync(path.join(project, 'src'));
    writeFileSync(source(), "export const greeting: string = 'first';\n");
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('builds the first time, then leaves an up-to-date build alone, and builds again once a source changes', async () => {
    await ensureBuilt();
    expect(readFileSync(path.join(project, 'dist', 'src', 'cli.js'), 'utf8')).toContain("'first'");
    expect(statSync(path.join(project, 'dist', '.built')).isFile()).toBe(true);

    const built = distTimes();
    const again = await ensureBuilt();
    expect(again.stdout + again.stderr).toBe('');
    expect(distTimes()).toEqual(built);

    // An edit saved after the build: its time is past the stamp's whatever the file system's clock grain.
    writeFileSync(source(), "export const greeting: string = 'second';\n");
    const stamp = statSync(path.join(project, 'dist', '.built')).mtime;
    utimesSync(source(), new Date(stamp.getTime() + 2000), new Date(stamp.getTime() + 2000));
    await ensureBuilt();
    expect(readFileSync(path.join(project, 'dist', 'src', 'cli.js'), 'utf8')).toContain("'second'");
  });

  it('builds again when the output was deleted, though the compiler\'s incremental record says it is up to date', async () => {
    await ensureBuilt();
    rmSync(path.join(project, 'dist', 'src', 'cli.js'));
    await ensureBuilt();
    expect(readFileSync(path.join(project, 'dist', 'src', 'cli.js'), 'utf8')).toContain("'second'");
  });
});
