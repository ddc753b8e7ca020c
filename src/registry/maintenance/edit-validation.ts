/**
 * A curator's change to a registry record is checked with the registration rules of the request fields it
 * corresponds to (registration/validation/chains.ts), so that the registry never holds what a request could
 * not have asked for: a namespace's pattern and sample id as a prefix request's, a resource's URL pattern,
 * home page and provider code as a resource request's (its namespace's pattern applies to its sample id),
 * an institution's name, home page and description as the request's institution fields. Only the chains
 * whose inputs the change touches run: a record imported with a value today's rules refuse can still be
 * edited in its other fields.
 */
import { DomainError } from '../../core/domain-error.js';
import type { InstitutionRow, NamespaceRow, ResourceRow } from '../../db/tables.js';
import type { RequestKind } from '../model/request-kind.js';
import type { RegistrationPayload } from '../model/registration-payload.js';
import type { EditFailure } from '../model/record-maintenance.js';
import type { ChainKey, RequestValidation } from '../model/request-validation.js';

/** A chain and the record fields it reads: it runs when one of them changes (and `when` holds). */
interface ChainTrigger<Row> {
  chain: ChainKey;
  fields: readonly (keyof Row & string)[];
  when?: (row: Row) => boolean;
}

function blankPayload(): RegistrationPayload {
  return {
    name: null,
    description: null,
    requestedPrefix: null,
    namespacePrefix: null,
    providerHomeUrl: null,
    providerName: null,
    providerDescription: null,
    providerLocation: null,
    providerCode: null,
    providerUrlPattern: null,
    sampleId: null,
    idRegexPattern: null,
    institutionName: null,
    institutionHomeUrl: null,
    institutionDescription: null,
    institutionLocation: null,
    institutionRorId: null,
    references: [],
    additionalInformation: null,
    requester: null,
    namespaceEmbeddedInLui: false,
    protectedUrls: false,
    renderProtectedLanding: false,
    authHelpUrl: null,
    authHelpDescription: null,
  };
}

const hasValue = (value: unknown) => value !== null && value !== undefined && value !== '';

const NAMESPACE_CHAINS: readonly ChainTrigger<NamespaceRow>[] = [
  { chain: 'prefix', fields: ['prefix'] },
  { chain: 'namespaceName', fields: ['name'] },
  { chain: 'namespaceDescription', fields: ['description'] },
  { chain: 'idRegexPattern', fields: ['pattern'] },
  { chain: 'sampleId', fields: ['sampleId'] },
];

const RESOURCE_CHAINS: readonly ChainTrigger<ResourceRow>[] = [
  { chain: 'providerUrlPattern', fields: ['urlPattern'] },
  // A resource without a sample id of its own is shown with its namespace's.
  { chain: 'sampleId', fields: ['sampleId', 'namespaceId'], when: (r) => hasValue(r.sampleId) },
  { chain: 'providerName', fields: ['name'] },
  { chain: 'providerDescription', fields: ['description'], when: (r) => r.description !== null },
  { chain: 'providerCode', fields: ['providerCode'] },
  // A provider code that moves with its resource must still be unique in the namespace it joins.
  { chain: 'providerCode', fields: ['namespaceId'], when: (r) => hasValue(r.providerCode) },
  { chain: 'providerHomeUrl', fields: ['resourceHomeUrl'] },
  { chain: 'authHelpUrl', fields: ['authHelpUrl', 'protectedUrls'] },
  { chain: 'authHelpDescription', fields: ['authHelpDescription', 'protectedUrls'] },
];

const INSTITUTION_CHAINS: readonly ChainTrigger<InstitutionRow>[] = [
  { chain: 'institutionName', fields: ['name'] },
  { chain: 'institutionHomeUrl', fields: ['homeUrl'] },
  { chain: 'institutionDescription', fields: ['description'] },
];

function chainsFor<Row>(triggers: readonly ChainTrigger<Row>[], changed: ReadonlySet<string>, row: Row): ChainKey[] {
  const keys: ChainKey[] = [];
  for (const trigger of triggers) {
    if (!trigger.fields.some((field) => changed.has(field))) continue;
    if (trigger.when && !trigger.when(row)) continue;
    if (!keys.includes(trigger.chain)) keys.push(trigger.chain);
  }
  return keys;
}

/**
 * What the checks are run with: the validator (absent when the registration checks are not configured: an
 * edit that needs them is then refused as unavailable), and the curator's address (checks are shared
 * fairly by it).
 */
export interface EditChecks {
  validator?: RequestValidation;
  client?: string;
}

const CHECKS_NOT_CONFIGURED = 'Edits cannot be validated right now (the registration checks are not configured)';

/** A rule an edit breaks: the record's field it is about, and the rule's message. */
/** The record field a chain's message is shown next to: the first field of its trigger. */
function fieldOf<Row>(triggers: readonly ChainTrigger<Row>[], chain: ChainKey): string {
  return triggers.find((trigger) => trigger.chain === chain)?.fields[0] ?? chain;
}

async function run<Row>(
  checks: EditChecks,
  kind: RequestKind,
  triggers: readonly ChainTrigger<Row>[],
  keys: ChainKey[],
  payload: RegistrationPayload,
): Promise<EditFailure[]> {
  if (keys.length === 0) return [];
  if (!checks.validator) throw new DomainError('unavailable', CHECKS_NOT_CONFIGURED, { retryAfterSeconds: 30 });
  const failures = await checks.validator.checkChains(kind, keys, payload, checks.client);
  return failures.map(({ chain, message }) => ({ field: fieldOf(triggers, chain), message }));
}

/** Every rule the edited namespace breaks (at most one per field), the first rule's first; [] when none. */
export function checkNamespaceEdit(checks: EditChecks, edited: NamespaceRow, changed: ReadonlySet<string>): Promise<EditFailure[]> {
  const payload = {
    ...blankPayload(),
    requestedPrefix: edited.prefix,
    name: edited.name,
    description: edited.description,
    idRegexPattern: edited.pattern,
    sampleId: edited.sampleId,
  };
  return run(checks, 'prefix', NAMESPACE_CHAINS, chainsFor(NAMESPACE_CHAINS, changed, edited), payload);
}

/** Every rule the edited resource breaks; `namespace` is the one it belongs to after the edit. */
export function checkResourceEdit(
  checks: EditChecks,
  edited: ResourceRow,
  namespace: Pick<NamespaceRow, 'prefix' | 'sampleId'>,
  changed: ReadonlySet<string>,
): Promise<EditFailure[]> {
  const payload = {
    ...blankPayload(),
    namespacePrefix: namespace.prefix,
    providerUrlPattern: edited.urlPattern,
    sampleId: hasValue(edited.sampleId) ? edited.sampleId : namespace.sampleId,
    providerName: edited.name,
    providerDescription: edited.description,
    providerCode: edited.providerCode,
    providerHomeUrl: edited.resourceHomeUrl,
    protectedUrls: edited.protectedUrls,
    authHelpUrl: edited.authHelpUrl,
    authHelpDescription: edited.authHelpDescription,
  };
  return run(checks, 'resource', RESOURCE_CHAINS, chainsFor(RESOURCE_CHAINS, changed, edited), payload);
}

/** Every rule the edited institution breaks. */
export function checkInstitutionEdit(checks: EditChecks, edited: InstitutionRow, changed: ReadonlySet<string>): Promise<EditFailure[]> {
  const payload = {
    ...blankPayload(),
    institutionName: edited.name,
    institutionHomeUrl: edited.homeUrl,
    institutionDescription: edited.description,
  };
  return run(checks, 'prefix', INSTITUTION_CHAINS, chainsFor(INSTITUTION_CHAINS, changed, edited), payload);
}

/** What the URL pattern a resource is reactivated with breaks, checked as a resource request's. */
export function checkReactivationPattern(
  checks: EditChecks,
  resource: ResourceRow,
  namespace: Pick<NamespaceRow, 'prefix' | 'sampleId'>,
  urlPattern: string,
): Promise<EditFailure[]> {
  return checkResourceEdit(checks, { ...resource, urlPattern }, namespace, new Set(['urlPattern']));
}

/**
 * An edit the registration rules refuse: invalid, with the first rule's message (what the API answers),
 * and every failure by field (what the desk's forms show next to each field).
 */
export class EditRefused extends DomainError {
  override name = 'EditRefused';

  constructor(readonly failures: readonly EditFailure[]) {
    super('invalid', failures[0]!.message);
  }
}
