/**
 * The notification outbox sender: rows are sent once however many claimers or worker processes run (a
 * local SMTP server on 127.0.0.1 counts what arrives), logged instead of sent without SMTP_URL, and retried
 * with back-off when the SMTP server cannot be reached (a closed local port), at most MAX_ATTEMPTS times.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { createLogger } from '../../src/lib/logger.js';
import { createWorkerRedis } from '../../src/queue/connections.js';
import { createQueue, queueNames, schedulerIds } from '../../src/queue/queues.js';
import { writeOutbox, type OutboxMessage, type OutboxRow } from '../../src/notifications/outbox.js';
import { createMailer } from '../../workers/notifications/mailer.js';
import { MAX_ATTEMPTS, sendDueNotifications } from '../../workers/notifications/notifications.processor.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { freePort, stopProcess, type Spawned } from '../support/processes.js';
import { spawnWorker, waitForQueueWorkers } from '../support/service-processes.js';
import { TEST_REDIS_URL } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

const LONG = 120_000;
const silent = createLogger('silent', 'test');

interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

/** Just enough SMTP (no TLS, no auth) to accept messages and keep them. */
async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let current: ReceivedMail = { from: '', to: [], data: '' };
    socket.write('220 localhost ESMTP test\r\n');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          current = { from: '', to: [], data: '' };
          socket.write('250 2.0.0 queued\r\n');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline === -1) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-localhost\r\n250 8BITMIME\r\n');
        else if (verb === 'MAIL') {
          current.from = line;
          socket.write('250 2.1.0 ok\r\n');
        } else if (verb === 'RCPT') {
          current.to.push(line.replace(/^RCPT TO:\s*/i, ''));
          socket.write('250 2.1.5 ok\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
        } else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    received,
    url: `smtp://127.0.0.1:${port}`,
    subjects: () => received.map((m) => /^Subject: (.*)$/m.exec(m.data)?.[1] ?? ''),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const messages = (count: number, label: string): OutboxMessage[] =>
  Array.from({ length: count }, (_, i) => ({
    kind: 'prefix.start.requester',
    recipient: `requester${i}@example.org`,
    subject: `${label} message ${i}`,
    body: `Dear requester ${i},\n\nthis is message ${i} of ${label}.`,
  }));

describe('the notification outbox', () => {
  let t: AreaStack;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  const rows = (label: string) => t.db('notificationOutbox').where('subject', 'like', `${label} %`).orderBy('id') as Promise<OutboxRow[]>;

  beforeAll(async () => {
    t = await startStack('notifications', { data: 'none' });
    smtp = await startSmtpServer();
  });

  afterAll(async () => {
    await smtp.close();
    await t.close();
  });

  it('sends every due row exactly once, however many claimers run at once', async () => {
    const label = `claimers-${randomBytes(3).toString('hex')}`;
    await writeOutbox(t.db, messages(20, label));
    const mailer = createMailer({ smtpUrl: smtp.url, from: 'registry@example.org', logger: silent });

    try {
      const outcomes = await Promise.all([1, 2, 3, 4].map(() => sendDueNotifications({ db: t.db, mailer })));

      expect(outcomes.reduce((sum, o) => sum + o.sent, 0)).toBe(20);
      expect(outcomes.reduce((sum, o) => sum + o.failed, 0)).toBe(0);
    } finally {
      mailer.close();
    }
    const sent = smtp.subjects().filter((s) => s.startsWith(label));
    expect(sent).toHaveLength(20);
    expect(new Set(sent).size).toBe(20);
    const stored = await rows(label);
    expect(stored.every((row) => row.sentAt !== null && row.attempts === 1 && row.lastError === null)).toBe(true);
    const first = smtp.received.find((m) => m.data.includes(`Subject: ${label} message 0`))!;
    expect(first.to).toEqual(['<requester0@example.org>']);
    expect(first.data).toContain('From: registry@example.org');
    expect(first.data).toContain(`this is message 0 of ${label}.`);
  }, LONG);

  it('logs each message and marks it sent when SMTP_URL is not set', async () => {
    const label = `logged-${randomBytes(3).toString('hex')}`;
    await writeOutbox(t.db, messages(2, label));
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) }));
    const mailer = createMailer({ smtpUrl: '', from: 'registry@example.org', logger });
    const before = smtp.received.length;

    const outcome = await sendDueNotifications({ db: t.db, mailer, logger });

    expect(outcome).toEqual({ sent: 2, failed: 0 });
    expect(smtp.received.length).toBe(before);
    const logged = lines.map((line) => JSON.parse(line) as { level: number; msg: string; to: string; subject: string; text: string }).filter((l) => l.subject?.startsWith(label));
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({ level: 30, to: 'requester0@example.org', subject: `${label} message 0`, msg: 'notification (not sent: SMTP_URL is not set)' });
    expect(logged[0]!.text).toContain(`this is message 0 of ${label}.`);
    expect((await rows(label)).every((row) => row.sentAt !== null)).toBe(true);
  });

  it('keeps a row it could not send, retries it after a back-off, and gives up after the last attempt', async () => {
    const label = `failing-${randomBytes(3).toString('hex')}`;
    await writeOutbox(t.db, messages(1, label));
    const closedPort = await freePort();
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${closedPort}`, from: 'registry@example.org', logger: silent, timeoutMs: 2000 });
    // A minute in the past, not now(): this machine's wall clock can step back by a little between two
    // statements, and a row due at exactly now() was then not due yet for the next transaction.
    const dueNow = () => t.db.raw("now() - interval '1 minute'");
    const due = () => t.db('notificationOutbox').where('subject', 'like', `${label} %`).update({ nextAttemptAt: dueNow() });

    try {
      expect(await sendDueNotifications({ db: t.db, mailer })).toEqual({ sent: 0, failed: 1 });
      let [row] = await rows(label);
      expect(row).toMatchObject({ sentAt: null, attempts: 1 });
      expect(row!.lastError).toMatch(/ECONNREFUSED|connect/i);
      const waitMs = row!.nextAttemptAt.getTime() - Date.now();
      expect(waitMs).toBeGreaterThan(20_000);
      expect(waitMs).toBeLessThan(40_000);

      // Not due yet: nothing is tried.
      expect(await sendDueNotifications({ db: t.db, mailer })).toEqual({ sent: 0, failed: 0 });

      await due();
      expect(await sendDueNotifications({ db: t.db, mailer })).toEqual({ sent: 0, failed: 1 });
      [row] = await rows(label);
      expect(row!.attempts).toBe(2);
      expect(row!.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(50_000);

      await t.db('notificationOutbox').where({ id: row!.id }).update({ attempts: MAX_ATTEMPTS - 1, nextAttemptAt: dueNow() });
      expect(await sendDueNotifications({ db: t.db, mailer })).toEqual({ sent: 0, failed: 1 });
      await due();
      expect(await sendDueNotifications({ db: t.db, mailer })).toEqual({ sent: 0, failed: 0 });
      [row] = await rows(label);
      expect(row).toMatchObject({ sentAt: null, attempts: MAX_ATTEMPTS });
    } finally {
      mailer.close();
    }
  }, LONG);

  describe('two worker processes', () => {
    let prefix: string;
    let inspector: Redis;
    const workers: Spawned[] = [];

    beforeAll(async () => {
      prefix = t.config.QUEUE_PREFIX;
      inspector = createWorkerRedis(TEST_REDIS_URL);
      const env = { SMTP_URL: smtp.url, NOTIFICATION_FROM: 'registry@example.org', NOTIFICATION_POLL_INTERVAL_MS: '200' };
      workers.push(spawnWorker(t, env), spawnWorker(t, env));
      await waitForQueueWorkers(queueNames.notifications, 2, { redisUrl: TEST_REDIS_URL, prefix });
    }, LONG);

    afterAll(async () => {
      await Promise.all(workers.map((worker) => stopProcess(worker)));
      inspector.disconnect();
    }, LONG);

    it('schedule one poll, and send each row once between them', async () => {
      const queue = createQueue(queueNames.notifications, inspector, prefix);
      const label = `workers-${randomBytes(3).toString('hex')}`;
      try {
        const schedulers = await queue.getJobSchedulers();
        expect(schedulers.map((s) => [s.key, s.every])).toEqual([[schedulerIds.notificationsPoll, 200]]);
        const polls = async () => (await queue.getJobScheduler(schedulerIds.notificationsPoll))?.iterationCount ?? 0;
        // Written in a few batches, as requests arrive, while both workers poll: each batch once a poll has
        // begun since the one before.
        for (let batch = 0; batch < 3; batch++) {
          const before = await polls();
          await writeOutbox(
            t.db,
            messages(10, label).map((m) => ({ ...m, subject: `${m.subject}-${batch}` })),
          );
          await waitFor(async () => (await polls()) > before, { timeoutMs: 10_000, everyMs: 20, what: 'the next poll' });
        }

        await waitFor(async () => (await rows(label)).every((row) => row.sentAt !== null), { timeoutMs: 30_000, what: 'every row sent' });
        // A duplicate comes from a poll that claimed a row before it was marked sent, so from a poll running
        // now: once no poll is running, every send there was to be has reached the SMTP server.
        await waitFor(async () => (await queue.getJobCounts('active')).active === 0, { timeoutMs: 10_000, everyMs: 10, what: 'no poll running' });
      } finally {
        await queue.close();
      }

      const sent = smtp.subjects().filter((s) => s.startsWith(label));
      expect(sent).toHaveLength(30);
      expect(new Set(sent).size).toBe(30);
      expect((await rows(label)).every((row) => row.attempts === 1)).toBe(true);
      for (const worker of workers) expect(worker.child.exitCode).toBeNull();
    }, LONG);
  });
});
