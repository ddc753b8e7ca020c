import type { Transporter } from 'nodemailer';
import type { Logger } from '../../src/lib/logger.js';
import { loadOnFirstUse } from '../../src/lib/warm-up.js';

// Loaded with the first message: a worker that never sends one never loads it.
const loadNodemailer = loadOnFirstUse(async () => (await import('nodemailer')).default, { warm: false });

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** Sends one e-mail, or rejects with the reason it could not. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
  /** For the start-up log: where mail goes. */
  readonly description: string;
}

export interface MailerOptions {
  /** SMTP_URL; empty: messages are logged instead of sent. */
  smtpUrl: string;
  /** NOTIFICATION_FROM. */
  from: string;
  logger: Logger;
  /** Bound on connecting, the greeting and each exchange with the server (default 10 s). */
  timeoutMs?: number;
}

// The host of an SMTP URL, for logs: never its credentials.
function hostOf(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    return `${url.protocol}//${url.host}`;
  } catch {
    return 'the configured SMTP server';
  }
}

/**
 * SMTP through nodemailer when SMTP_URL is set (STARTTLS when the server offers it, TLS for smtps://);
 * otherwise each message is written to the log at info level and counts as sent, so that a registry without
 * a mail server still shows what it would have sent.
 */
export function createMailer(options: MailerOptions): Mailer {
  const { smtpUrl, from, logger } = options;
  if (smtpUrl === '') {
    return {
      description: 'notifications are logged (SMTP_URL is not set)',
      send: async (mail) => {
        logger.info({ to: mail.to, subject: mail.subject, text: mail.text }, 'notification (not sent: SMTP_URL is not set)');
      },
      close: () => undefined,
    };
  }
  const timeout = options.timeoutMs ?? 10_000;
  let transport: Promise<Transporter> | undefined;
  const transportNow = () =>
    (transport ??= loadNodemailer().then((nodemailer) =>
      nodemailer.createTransport({ url: smtpUrl, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout }),
    ));
  return {
    description: `notifications are sent through ${hostOf(smtpUrl)}`,
    send: async (mail) => {
      await (await transportNow()).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => void transport?.then((t) => t.close()),
  };
}
