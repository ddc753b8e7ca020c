/**
 * What a test file needs beyond the shared Postgres and Redis: a binary, a directory of binaries, a data file.
 * A block whose needs are missing on this machine does not run; in its place stands one skipped test named
 * after the missing need (`needs …`), which the requirements reporter (test/support/requirements-reporter.js)
 * repeats under the jest summary, because jest prints neither the names of skipped tests nor the console of a
 * file whose tests are all skipped. A need marked requiredInCi fails there instead of skipping.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export interface Requirement {
  /** True when this machine has it. */
  met: boolean;
  /** What is missing and how to provide it; the skipped test is named `needs <need>`. */
  need: string;
  /** Under CI=true a missing need fails the block instead of skipping it. */
  requiredInCi?: boolean;
}

/** The title every requirement skip starts with; the reporter lists pending tests by it. */
export const NEEDS = 'needs ';

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Where a program would be found on PATH, as spawn() looks it up; undefined when it is not there. */
export function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

/** A program the tests spawn by name. */
export function binaryOnPath(name: string, why: string): Requirement {
  return { met: findOnPath(name) !== undefined, need: `${name} on PATH (${why})` };
}

/** What the Redis fault drills need: they start, and stop, a redis-server of their own. */
export function redisServerBinary(): Requirement {
  return binaryOnPath('redis-server', 'Redis fault drills stop a Redis server of their own');
}

/**
 * HAProxy (Debian package haproxy), the balancer of the scale-out test (npm run start:cluster); .ci/run
 * installs it, so under CI=true a missing one fails.
 */
export function haproxyBinary(): Requirement {
  const need = 'haproxy on PATH or in /usr/sbin (Debian package haproxy: the scale-out test runs npm run start:cluster behind it)';
  return { met: findOnPath('haproxy') !== undefined || isExecutable('/usr/sbin/haproxy'), need, requiredInCi: true };
}

/**
 * The directory of the PostgreSQL server programs (initdb, pg_ctl): TEST_POSTGRES_BIN_DIR, else the newest
 * /usr/lib/postgresql/<version>/bin (Debian and Ubuntu); undefined when neither holds them.
 */
export function postgresBinDir(): string | undefined {
  const candidates: string[] = [];
  if (process.env.TEST_POSTGRES_BIN_DIR) candidates.push(process.env.TEST_POSTGRES_BIN_DIR);
  else if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a) || b.localeCompare(a));
    candidates.push(...versions.map((v) => path.join('/usr/lib/postgresql', v, 'bin')));
  }
  return candidates.find((dir) => isExecutable(path.join(dir, 'initdb')) && isExecutable(path.join(dir, 'pg_ctl')));
}

function userExists(name: string): boolean {
  try {
    execFileSync('id', ['-u', name], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** What test/support/postgres-cluster.ts needs to run a throwaway cluster of its own. */
export function postgresServerBinaries(): Requirement {
  const why = 'Postgres fault drills run a throwaway cluster of their own';
  if (!postgresBinDir()) {
    const where = process.env.TEST_POSTGRES_BIN_DIR
      ? `in TEST_POSTGRES_BIN_DIR (${process.env.TEST_POSTGRES_BIN_DIR})`
      : 'in /usr/lib/postgresql/<version>/bin, or TEST_POSTGRES_BIN_DIR set to their directory';
    return { met: false, need: `the PostgreSQL server programs initdb and pg_ctl ${where} (${why})` };
  }
  // initdb refuses to run as root: as root the drills run it as the postgres user, through runuser.
  if (process.getuid?.() === 0 && !(findOnPath('runuser') && userExists('postgres'))) {
    return { met: false, need: `runuser and a postgres user, to run initdb when the tests run as root (${why})` };
  }
  return { met: true, need: `the PostgreSQL server programs (${why})` };
}

/** What startOwnReplica (postgres-cluster.ts) needs besides a cluster of its own: pg_basebackup. */
export function postgresReplicaBinaries(): Requirement {
  const dir = postgresBinDir();
  const met = dir !== undefined && isExecutable(path.join(dir, 'pg_basebackup'));
  return { met, need: 'pg_basebackup beside initdb and pg_ctl (the read-replica test copies a cluster into a hot standby)' };
}

/**
 * REGISTRY_DATASET, the identifiers.org dataset file the real-data tests read; required under CI=true.
 * `file` is its path when it is there.
 */
export function registryDataset(): Requirement & { file?: string } {
  const file = process.env.REGISTRY_DATASET || undefined;
  const how = 'a copy of the identifiers.org dataset (a download of https://registry.api.identifiers.org/resolutionApi/getResolverDataset)';
  if (!file) return { met: false, need: `REGISTRY_DATASET: set it to ${how}`, requiredInCi: true };
  if (!existsSync(file)) return { met: false, need: `REGISTRY_DATASET: ${file} does not exist; point it at ${how}`, requiredInCi: true };
  return { met: true, need: `REGISTRY_DATASET (${file})`, requiredInCi: true, file };
}

/**
 * describe(title, body) when every requirement is met; otherwise a block of the same title with one test per
 * missing need, skipped (or failing under CI=true for a need required there), so that the reason is counted
 * and named in the run's summary instead of the block failing on a spawn error.
 */
export function describeRequiring(requirements: Requirement[], title: string, body: () => void): void {
  const missing = requirements.filter((r) => !r.met);
  if (missing.length === 0) {
    describe(title, body);
    return;
  }
  const inCi = process.env.CI === 'true';
  describe(title, () => {
    for (const requirement of missing) {
      const name = `${NEEDS}${requirement.need}`;
      if (requirement.requiredInCi && inCi) {
        it(name, () => {
          throw new Error(`Required under CI=true (see .ci/run): ${requirement.need}`);
        });
      } else {
        it.skip(name, () => undefined);
      }
    }
  });
}
