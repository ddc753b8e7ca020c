import type { Db } from '../../src/db/knex.js';
import type { Logger } from '../../src/lib/logger.js';
import type { NotificationsOutcome } from '../../src/queue/notifications.queue.js';
import type { Mailer } from './mailer.js';

/** A row is tried at most this many times; then it stays unsent, with its last error, for an operator. */
export const MAX_ATTEMPTS = 10;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 6 * 60 * 60 * 1000;

/** Wait before the next try after `attempts` failed ones: 30 s, 1 min, 2 min, ... at most 6 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
}

export interface NotificationsDeps {
  db: Db;
  mailer: Mailer;
  logger?: Logger;
  /** Rows one run sends at most (the next run, a few seconds later, goes on). */
  maxPerRun?: number;
}

type Step = 'none' | 'sent' | 'failed';

/**
 * Sends the due rows of notification_outbox, one at a time: each row is claimed with FOR UPDATE SKIP LOCKED
 * in its own transaction and marked sent (or failed, with back-off) before the lock is released, so two
 * workers never send the same row, and a worker that dies mid-send leaves the row to be sent again (at least
 * once: a server that accepted the message just before the crash gets it twice).
 */
export async function sendDueNotifications(deps: NotificationsDeps): Promise<NotificationsOutcome> {
  const { db, mailer, logger } = deps;
  const limit = deps.maxPerRun ?? 50;
  const outcome: NotificationsOutcome = { sent: 0, failed: 0 };
  for (let i = 0; i < limit; i++) {
    const step = await db.transaction(async (trx): Promise<Step> => {
      const row = await trx('notification_outbox')
        .first('*')
        .whereNull('sentAt')
        .where('attempts', '<', MAX_ATTEMPTS)
        .where('nextAttemptAt', '<=', trx.fn.now())
        .orderBy([{ column: 'nextAttemptAt' }, { column: 'id' }])
        .forUpdate()
        .skipLocked();
      if (!row) return 'none';
      const attempts = row.attempts + 1;
      try {
        await mailer.send({ to: row.recipient, subject: row.subject, text: row.body });
      } catch (error) {
        const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
        const delay = retryDelayMs(attempts);
        await trx('notification_outbox')
          .update({ attempts, lastError: message, nextAttemptAt: trx.raw(`now() + (? * interval '1 millisecond')`, [delay]) })
          .where({ id: row.id });
        if (attempts >= MAX_ATTEMPTS) {
          logger?.error({ id: row.id, kind: row.kind, attempts, err: error }, 'notification not sent; giving up after the last attempt');
        } else {
          logger?.warn({ id: row.id, kind: row.kind, attempts, retryInMs: delay, err: error }, 'notification not sent; will retry');
        }
        return 'failed';
      }
      await trx('notification_outbox').update({ attempts, sentAt: trx.fn.now(), lastError: null }).where({ id: row.id });
      return 'sent';
    });
    if (step === 'none') break;
    outcome[step]++;
  }
  return outcome;
}
