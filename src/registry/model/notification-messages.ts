/**
 * The e-mails of registration (registry-behaviour.md §2.9), for the notification outbox
 * (src/notifications/outbox.ts). Start: a confirmation to the requester and a notice to the curators;
 * reject and accept: a message to the requester; the requester's answer to a comment: a notice to the
 * curators; amend and a curator's comment: nothing.
 *
 * A request sends mail to whatever address it gives, so the requester's messages quote none of the
 * requester's free text that could carry a link (issue 21 item 11: a spam request once mailed any address
 * 255 characters of its sender's choosing): the greeting names the requester only when the name is a plain
 * name, and the subject names the requested prefix only when it cannot be read as a domain. Everything else
 * the requester reads on the status page. The curators' notices quote the request: that is their purpose,
 * and they go to the curators only.
 */
import type { Config } from '../../config.js';
import type { OutboxMessage } from '../../notifications/outbox.js';
import { prefixOf, type RequestKind, type RequestRow } from './registration-records.js';

export interface NotificationSettings {
  /** PUBLIC_REGISTRY_URL, for the status and curation links. */
  publicRegistryUrl: string;
  /** PUBLIC_RESOLVER_URL, for the link to a newly resolvable identifier. */
  publicResolverUrl: string;
  /** CURATOR_EMAIL; empty: no curator notice. */
  curatorEmail: string;
}

export function notificationSettings(config: Pick<Config, 'PUBLIC_REGISTRY_URL' | 'PUBLIC_RESOLVER_URL' | 'CURATOR_EMAIL'>): NotificationSettings {
  return { publicRegistryUrl: config.PUBLIC_REGISTRY_URL, publicResolverUrl: config.PUBLIC_RESOLVER_URL, curatorEmail: config.CURATOR_EMAIL };
}

const WORD: Record<RequestKind, string> = { prefix: 'prefix', resource: 'resource' };
const API: Record<RequestKind, string> = { prefix: 'prefixRegistrationApi', resource: 'resourceManagementApi' };
const EVENTS_SEARCH: Record<RequestKind, string> = {
  prefix: 'prefixRegistrationSessionEvents/search/findByPrefixRegistrationSessionId',
  resource: 'resourceRegistrationSessionEvents/search/findByResourceRegistrationSessionId',
};
const OPERATION: Record<RequestKind, string> = { prefix: 'PrefixRegistrationRequest', resource: 'ResourceRegistrationRequest' };

// Subjects are single lines whatever a requester typed.
const oneLine = (value: string): string => value.replace(/[\r\n]+/g, ' ').slice(0, 200);

// A name as people write theirs (letters, spaces, `.`, `'`, `-`), short, and with no dot a letter follows
// (`evil.example`): nothing a mail program would turn into a link.
const PLAIN_NAME = /^[\p{L}\p{M}][\p{L}\p{M} .'’-]{0,59}$/u;
const DOMAIN_LIKE = /\.\p{L}/u;

/** `Dear Rita Requester,` for a plain name, else a greeting that quotes nothing of the requester's. */
export function greeting(requesterName: string): string {
  const name = requesterName.trim();
  return PLAIN_NAME.test(name) && !DOMAIN_LIKE.test(name) ? `Dear ${name},` : 'Hello,';
}

/**
 * The request's prefix as the requester's messages quote it, or undefined when it could be read as a link:
 * a requested prefix holding a dot (`win.example.com`). A resource request's prefix is a registered
 * namespace's, quoted as it is.
 */
export function quotablePrefix(kind: RequestKind, request: RequestRow): string | undefined {
  const prefix = oneLine(prefixOf(request));
  return kind === 'prefix' && prefix.includes('.') ? undefined : prefix;
}

function describeRequest(kind: RequestKind, request: RequestRow): string[] {
  const lines: string[] = [];
  if (kind === 'prefix' && 'requestedPrefix' in request) {
    lines.push(`Prefix: ${request.requestedPrefix}`, `Name: ${request.name}`, `Description: ${request.description}`);
  } else {
    lines.push(`Namespace: ${prefixOf(request)}`);
  }
  lines.push(
    `Provider: ${request.providerName} (code '${request.providerCode}')`,
    `Provider description: ${request.providerDescription}`,
    `Institution: ${request.institutionName}`,
  );
  return lines;
}

/**
 * A message to the requester about their request: `subject` leads its subject line, `outcome` says what
 * became of the request after the greeting, `more` follows.
 */
function requesterMessage(
  kind: RequestKind,
  request: RequestRow,
  event: 'start' | 'reject' | 'accept',
  news: { subject: string; outcome: string; more: string[] },
): OutboxMessage {
  const prefix = quotablePrefix(kind, request);
  const word = WORD[kind];
  const forPrefix = prefix === undefined ? '' : ` for '${prefix}'`;
  return {
    kind: `${kind}.${event}.requester`,
    recipient: request.requesterEmail,
    subject: `${news.subject} ${word} registration request${forPrefix}`,
    body: [greeting(request.requesterName), '', `your ${word} registration request${forPrefix} has been ${news.outcome}`, ...news.more].join('\n'),
  };
}

/** The requester's confirmation and the curators' notice of a new request. */
export function startMessages(
  kind: RequestKind,
  request: RequestRow,
  session: { id: number; token: string },
  settings: NotificationSettings,
): OutboxMessage[] {
  const prefix = oneLine(prefixOf(request));
  const word = WORD[kind];
  const messages: OutboxMessage[] = [
    requesterMessage(kind, request, 'start', {
      subject: 'Received',
      outcome: 'received and queued for review by the curators.',
      more: [
        'Requests are reviewed in the order they arrive; please allow a few days.',
        '',
        'You can follow the state of your request at:',
        `${settings.publicRegistryUrl}/requests/${session.token}`,
        '',
        'Keep this link to yourself: it shows your request to whoever has it.',
      ],
    }),
  ];
  if (settings.curatorEmail.trim() !== '') {
    const api = `${settings.publicRegistryUrl}/${API[kind]}`;
    messages.push({
      kind: `${kind}.start.curator`,
      recipient: settings.curatorEmail,
      subject: `[${kind === 'prefix' ? 'PREFIX' : 'RESOURCE'}_REQUEST] New for prefix '${prefix}'`,
      body: [
        `A new ${word} registration request is waiting for curation.`,
        '',
        ...describeRequest(kind, request),
        `Requester: ${request.requesterName} <${request.requesterEmail}>`,
        `Session: ${session.id}`,
        '',
        `History: ${settings.publicRegistryUrl}/restApi/${EVENTS_SEARCH[kind]}?id=${session.id}`,
        `Accept: POST ${api}/accept${OPERATION[kind]}/${session.id}`,
        `Reject: POST ${api}/reject${OPERATION[kind]}/${session.id}`,
      ].join('\n'),
    });
  }
  return messages;
}

export function rejectionMessages(kind: RequestKind, request: RequestRow, reason: string): OutboxMessage[] {
  return [
    requesterMessage(kind, request, 'reject', {
      subject: 'REJECTED',
      outcome: 'REJECTED by the curators, for this reason:',
      more: ['', reason, '', 'Reply to this message if you would like to discuss it.'],
    }),
  ];
}

export function acceptanceMessages(kind: RequestKind, request: RequestRow, reason: string, settings: NotificationSettings): OutboxMessage[] {
  const example = `${settings.publicResolverUrl}/${prefixOf(request)}:${request.sampleId}`;
  return [
    requesterMessage(kind, request, 'accept', {
      subject: 'ACCEPTED',
      outcome: `ACCEPTED: ${reason}`,
      more: [
        '',
        kind === 'prefix'
          ? `The namespace is in the registry now; its sample identifier resolves at ${example}`
          : `The provider '${request.providerName}' is in the registry now, among the providers of ${example}`,
      ],
    }),
  ];
}

/** The curators' notice of a requester's answer on the status page (none without CURATOR_EMAIL). */
export function requesterReplyMessages(
  kind: RequestKind,
  request: RequestRow,
  session: { id: number },
  comment: string,
  settings: NotificationSettings,
): OutboxMessage[] {
  if (settings.curatorEmail.trim() === '') return [];
  return [
    {
      kind: `${kind}.reply.curator`,
      recipient: settings.curatorEmail,
      subject: `[${kind === 'prefix' ? 'PREFIX' : 'RESOURCE'}_REQUEST] The requester answered, for prefix '${oneLine(prefixOf(request))}'`,
      body: [
        `The requester of ${WORD[kind]} registration session ${session.id} answered:`,
        '',
        comment,
        '',
        `History: ${settings.publicRegistryUrl}/restApi/${EVENTS_SEARCH[kind]}?id=${session.id}`,
      ].join('\n'),
    },
  ];
}
