/**
 * A dataset build killed mid-way (SIGKILL, a crash, a restart) leaves its temporary files in DATASET_DIR;
 * the next build removes them, even when it finds the registry unchanged and writes nothing (issue 10,
 * item 9). A build that holds the build lock knows every temporary there is a dead build's; one without it
 * (buildDataset called directly) only removes temporaries nobody has written to for a minute. A build still
 * running is never disturbed: the next one waits for the lock.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildDataset } from '../../src/dataset/build-dataset.js';
import { runRecordedBuild } from '../../src/dataset/dataset-builds.js';
import { processDatasetBuild } from '../../workers/dataset/dataset.processor.js';
import { createTestDatabase, loadSample, type TestDatabase } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

let t: TestDatabase;
let dir: string;

/** The files a build killed mid-way leaves behind, named as a build names them. */
function leaveDeadBuild(token: string, ageMs = 0): string[] {
  const names = [`.dataset-${token}-plain.json.tmp`, `.dataset-${token}-plain.json.gz.tmp`, `.dataset-${token}-rewritten.json.tmp`];
  const when = new Date(Date.now() - ageMs);
  for (const name of names) {
    writeFileSync(path.join(dir, name), '{"apiVersion":"1.0","errorMessage":null,"payload":{"namespaces":[');
    utimesSync(path.join(dir, name), when, when);
  }
  return names;
}
const temporaries = () => readdirSync(dir).filter((name) => name.endsWith('.tmp')).sort();
const build = () => processDatasetBuild({ db: t.db, dir }, { data: { reason: 'registry-change' } });

beforeAll(async () => {
  t = await createTestDatabase('dataset_temporaries');
  await loadSample(t.db);
  dir = mkdtempSync(path.join(os.tmpdir(), 'dataset-temporaries-'));
  expect((await build()).status).toBe('built');
});

afterAll(async () => {
  await t.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("a dead build's temporary files", () => {
  it('are removed by the next build even when it finds the registry unchanged', async () => {
    leaveDeadBuild('0123456789abcdef');
    expect(temporaries()).toHaveLength(3);

    const outcome = await build();

    expect(outcome.status).toBe('skipped');
    expect(temporaries()).toEqual([]);
  });

  it('are removed by the next build that writes a new dataset, however recent they are', async () => {
    leaveDeadBuild('fedcba9876543210');
    await t.db('namespaces').where({ prefix: 'go' }).update({ name: 'Gene Ontology, renamed for the temporaries test' });

    const outcome = await build();

    expect(outcome.status).toBe('built');
    expect(temporaries()).toEqual([]);
  });

  it('are removed by a build without the lock only once nobody has written to them for a minute', async () => {
    const recent = leaveDeadBuild('aaaaaaaaaaaaaaaa');
    const old = leaveDeadBuild('bbbbbbbbbbbbbbbb', 2 * 60_000);

    const result = await buildDataset({ db: t.db, dir });

    expect(result.status).toBe('skipped');
    // A recent one may be another build's, still writing: without the lock there is no telling.
    expect(temporaries()).toEqual([...recent].sort());
    for (const name of old) expect(existsSync(path.join(dir, name))).toBe(false);
    await build();
    expect(temporaries()).toEqual([]);
  });
});

describe('a build in progress', () => {
  it('keeps its temporary files while the next build waits for it', async () => {
    await t.db('namespaces').where({ prefix: 'go' }).update({ name: 'Gene Ontology, renamed again' });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const running = runRecordedBuild(t.db, { db: t.db, dir, reason: 'nightly', pageSize: 2, onProgress: () => gate });
    // The build opens its files (dataset and exports, each with a gzip copy) one after another before it
    // stops at the gate: the list is taken once it has stopped growing.
    let seen = '';
    const writing = await waitFor(
      async () => {
        const now = temporaries();
        const same = now.length > 0 && JSON.stringify(now) === seen;
        seen = JSON.stringify(now);
        return same ? now : undefined;
      },
      { timeoutMs: 10_000, what: 'the first build writing, stopped at the gate', everyMs: 300 },
    );

    // Released whatever happens: a build left at the gate would hold its connection and keep jest alive.
    try {
      const next = build();
      // The next build waiting at the lock (pg_advisory_lock not granted), not a guess of how long it takes to get there.
      await waitFor(
        async () => {
          const { rows } = await t.db.raw<{ rows: { n: string }[] }>(
            "SELECT count(*) AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND NOT l.granted AND a.datname = current_database()",
          );
          return Number(rows[0]!.n) > 0;
        },
        { timeoutMs: 10_000, everyMs: 20, what: 'the next build waiting for the lock' },
      );
      expect(temporaries()).toEqual(writing);

      release();
      expect((await running).status).toBe('built');
      expect((await next).status).toBe('skipped');
    } finally {
      release();
      await running.catch(() => undefined);
    }
    expect(temporaries()).toEqual([]);
  });
});
