import { queueNames } from '../../src/queue/queues.js';
import { startWorker, type JobFamily } from '../job-family.js';
import { createMailer } from './mailer.js';
import { sendDueNotifications } from './notifications.processor.js';

/**
 * Registration e-mails: the API writes them as notification_outbox rows in the transaction of the event
 * that causes them; a job scheduler (schedules.ts) runs a send of the due rows every
 * NOTIFICATION_POLL_INTERVAL_MS. Rows are claimed with SKIP LOCKED, so any number of
 * worker processes share them without sending one twice.
 */
export const notificationsFamily: JobFamily = {
  name: 'notifications',
  start: async (deps) => {
    const { config, db, logger } = deps;
    const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.NOTIFICATION_FROM, logger });
    const worker = startWorker(
      deps,
      queueNames.notifications,
      async () => {
        const outcome = await sendDueNotifications({ db, mailer, logger });
        if (outcome.sent + outcome.failed > 0) logger.info(outcome, 'notifications processed');
        return outcome;
      },
      { concurrency: 1 },
    );
    worker.once('closed', () => mailer.close());
    logger.info(mailer.description);
    return [worker];
  },
};
