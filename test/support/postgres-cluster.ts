import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './processes.js';
import { postgresBinDir } from './requirements.js';

/**
 * A throwaway Postgres cluster of our own on a free port, for fault drills: tests stop and start this one,
 * never the shared server. Runs as the postgres user when the tests run as root (initdb refuses root).
 * With a `password` the superuser has it and every login must give it (SCRAM), unlike the shared
 * server's trust. Test files using it declare postgresServerBinaries() (requirements.ts), so that a machine
 * without the server programs skips them with that reason.
 */
export interface OwnPostgres {
  port: number;
  /** postgres://postgres@… for the database, with `password` (right or wrong) in it when given. */
  url: (database: string, password?: string) => string;
  stop: () => void;
  start: () => void;
  destroy: () => void;
}

function binDir(): string {
  const dir = postgresBinDir();
  if (!dir) throw new Error('no PostgreSQL server programs (initdb, pg_ctl): install them or set TEST_POSTGRES_BIN_DIR');
  return dir;
}

function run(command: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  execFileSync(file, argv, { stdio: 'pipe' });
}

export async function startOwnPostgres(options: { password?: string } = {}): Promise<OwnPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pg-drill-'));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? [Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString())] : undefined;
  if (owner) chownSync(dir, owner[0]!, owner[1]!);
  const port = await freePort();
  const bin = binDir();
  let auth = ['-A', 'trust'];
  if (options.password !== undefined) {
    const pwfile = path.join(dir, 'pwfile');
    writeFileSync(pwfile, `${options.password}\n`, { mode: 0o600 });
    if (owner) chownSync(pwfile, owner[0]!, owner[1]!);
    auth = ['-A', 'scram-sha-256', `--pwfile=${pwfile}`];
  }
  run(path.join(bin, 'initdb'), ['-D', path.join(dir, 'data'), ...auth, '-U', 'postgres', '--no-sync']);
  const start = () =>
    run(path.join(bin, 'pg_ctl'), [
      '-D', path.join(dir, 'data'), '-w', '-l', path.join(dir, 'log'),
      '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start',
    ]);
  const stop = () => run(path.join(bin, 'pg_ctl'), ['-D', path.join(dir, 'data'), '-w', '-m', 'immediate', 'stop']);
  start();
  return {
    port,
    url: (database, password) =>
      password === undefined ? `postgres://postgres@127.0.0.1:${port}/${database}` : `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    start,
    stop,
    destroy: () => {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A hot standby of `primary` (one of startOwnPostgres's, trust auth), in streaming replication: copied with
 * pg_basebackup -R, started on a free port of its own. Writes refused there; `url` names its databases.
 */
export async function startOwnReplica(primary: OwnPostgres): Promise<OwnPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pg-replica-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  const port = await freePort();
  const bin = binDir();
  const data = path.join(dir, 'data');
  run(path.join(bin, 'pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', data, '-R', '-X', 'stream', '--no-sync']);
  const start = () =>
    run(path.join(bin, 'pg_ctl'), [
      '-D', data, '-w', '-l', path.join(dir, 'log'),
      '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c hot_standby=on`, 'start',
    ]);
  const stop = () => run(path.join(bin, 'pg_ctl'), ['-D', data, '-w', '-m', 'immediate', 'stop']);
  start();
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start,
    stop,
    destroy: () => {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
