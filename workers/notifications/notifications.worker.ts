import { Worker } from 'bullmq';
import { queueNames, type NotificationsJob } from '../../src/queue/queues.js';
import type { JobFamily } from '../job-families.js';
import { createMailer } from './mailer.js';
import { sendDueNotifications, type NotificationsOutcome } from './notifications.processor.js';

/**
 * Registration e-mails: the API writes them as notification_outbox rows in the transaction of the event
 * that causes them; a job scheduler (schedules.ts) runs a send of the due rows every
 * NOTIFICATION_POLL_INTERVAL_MS. Rows are claimed with SKIP LOCKED, so any number of
 * worker processes share them without sending one twice.
 */
export const notificationsFamily: JobFamily = {
  name: 'notifications',
  start: async ({ config, db, connection, logger }) => {
    const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.NOTIFICATION_FROM, logger });
    const worker = new Worker<NotificationsJob, NotificationsOutcome>(
      queueNames.notifications,
      async () => {
        const outcome = await sendDueNotifications({ db, mailer, logger });
        if (outcome.sent + outcome.failed > 0) logger.info(outcome, 'notifications processed');
        return outcome;
      },
      { connection, prefix: config.QUEUE_PREFIX, concurrency: 1 },
    );
    worker.on('error', (error) => logger.error({ err: error }, 'notifications worker error'));
    worker.once('closed', () => mailer.close());
    logger.info(mailer.description);
    return [worker];
  },
};
