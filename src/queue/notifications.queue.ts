/**
 * Sends the due rows of notification_outbox (src/notifications/outbox.ts): the rows, not the jobs, carry the
 * messages, so a job is only a "send what is due now".
 */
export const NOTIFICATIONS_QUEUE = 'notifications';

export interface NotificationsJob {
  /** 'poll' (the scheduler, every NOTIFICATION_POLL_INTERVAL_MS). */
  reason: 'poll';
}

export interface NotificationsOutcome {
  sent: number;
  failed: number;
}

/** Stable and versioned: upserting it again on every start changes nothing. */
export const NOTIFICATIONS_POLL_SCHEDULER = 'notifications:poll:v1';
