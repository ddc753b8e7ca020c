/**
 * The e-mails of registration (registry-behaviour.md §2.9), written as notification_outbox rows in the
 * transaction of the event that causes them and sent by the notifications worker: a request is never held up,
 * nor an e-mail lost, by the mail server. Start: a confirmation to the requester and a notice to the
 * curators; reject and accept: a message to the requester; amend and comment: nothing.
 */
import type { Knex } from 'knex';
import { prefixOf, type RequestKind, type RequestRow } from '../registration/submission/registration-records.js';

export interface NotificationSettings {
  /** PUBLIC_REGISTRY_URL, for the status and curation links. */
  publicRegistryUrl: string;
  /** PUBLIC_RESOLVER_URL, for the link to a newly resolvable identifier. */
  publicResolverUrl: string;
  /** CURATOR_EMAIL; empty: no curator notice. */
  curatorEmail: string;
}

export interface OutboxMessage {
  /** e.g. `prefix.start.requester`. */
  kind: string;
  recipient: string;
  subject: string;
  body: string;
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
    {
      kind: `${kind}.start.requester`,
      recipient: request.requesterEmail,
      subject: `Received ${word} registration request for '${prefix}'`,
      body: [
        `Dear ${request.requesterName},`,
        '',
        `your ${word} registration request for '${prefix}' has been received and queued for review by the curators.`,
        'Requests are reviewed in the order they arrive; please allow a few days.',
        '',
        'You can follow the state of your request at:',
        `${settings.publicRegistryUrl}/${API[kind]}/status/${session.token}`,
        '',
        'Keep this link to yourself: it shows your request to whoever has it.',
      ].join('\n'),
    },
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
  const prefix = oneLine(prefixOf(request));
  const word = WORD[kind];
  return [
    {
      kind: `${kind}.reject.requester`,
      recipient: request.requesterEmail,
      subject: `REJECTED ${word} registration request for '${prefix}'`,
      body: [
        `Dear ${request.requesterName},`,
        '',
        `your ${word} registration request for '${prefix}' has been REJECTED by the curators, for this reason:`,
        '',
        reason,
        '',
        'Reply to this message if you would like to discuss it.',
      ].join('\n'),
    },
  ];
}

export function acceptanceMessages(kind: RequestKind, request: RequestRow, reason: string, settings: NotificationSettings): OutboxMessage[] {
  const prefix = oneLine(prefixOf(request));
  const word = WORD[kind];
  const example = `${settings.publicResolverUrl}/${prefixOf(request)}:${request.sampleId}`;
  return [
    {
      kind: `${kind}.accept.requester`,
      recipient: request.requesterEmail,
      subject: `ACCEPTED ${word} registration request for '${prefix}'`,
      body: [
        `Dear ${request.requesterName},`,
        '',
        `your ${word} registration request for '${prefix}' has been ACCEPTED: ${reason}`,
        '',
        kind === 'prefix'
          ? `The namespace is in the registry now; its sample identifier resolves at ${example}`
          : `The provider '${request.providerName}' is in the registry now, among the providers of ${example}`,
      ].join('\n'),
    },
  ];
}

/** Writes the messages in the caller's transaction: they are sent only if it commits. */
export async function writeOutbox(trx: Knex, messages: readonly OutboxMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await trx('notification_outbox').insert(messages.map((m) => ({ kind: m.kind, recipient: m.recipient, subject: m.subject, body: m.body })));
}
