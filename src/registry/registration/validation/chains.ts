/**
 * The validation chains of registry-behaviour.md §2.2, in the reference's order (the order in which
 * registerPrefix / registerResource report their messages). A chain reads one value of the payload, with
 * a getter per request kind (no getter: the chain does not apply to that kind and passes), may apply only
 * under a condition, and runs its rules in order until the first failure.
 *
 * Besides the reference's rules every text has an upper bound, the size of the column it is stored in.
 */
import { cannotBacktrackCatastrophically } from './backtracking-check.js';
import type { RegistrationPayload } from '../../model/registration-payload.js';
import type { ChainKey } from '../../model/request-validation.js';
import type { Validator } from './validation-context.js';
import {
  containsIdPlaceholder,
  countryCode,
  email,
  institutionUrl,
  maxLength,
  minLength,
  notBlank,
  prefix,
  providerCode,
  regexSyntax,
  rorId,
  sampleIdMatchesPattern,
  sampleUrl,
  similarUrlPattern,
  url,
} from './validators.js';


type Getter = (payload: RegistrationPayload) => string | null;

export interface Chain {
  key: ChainKey;
  /** The field's name in messages. */
  label: string;
  /** The value for a prefix registration request; absent when the chain does not apply to one. */
  prefixValue?: Getter;
  /** The value for a resource registration request; absent when the chain does not apply to one. */
  resourceValue?: Getter;
  /** The chain applies only when this holds (the authentication help fields, for protected URLs). */
  condition?: (payload: RegistrationPayload) => boolean;
  validators: readonly Validator[];
}

// Column sizes of the request tables (migrations/20261122000800_create_registration_tables.ts).
const NAME_MAX = 255;
const TEXT_MAX = 2000;
const PATTERN_MAX = 1000;

const both = (get: Getter) => ({ prefixValue: get, resourceValue: get });
const isProtected = (payload: RegistrationPayload) => payload.protectedUrls;

export const CHAINS: readonly Chain[] = [
  { key: 'namespaceName', label: 'Name', prefixValue: (p) => p.name, validators: [notBlank, maxLength(NAME_MAX)] },
  {
    key: 'namespaceDescription',
    label: 'Description',
    prefixValue: (p) => p.description,
    validators: [notBlank, minLength, maxLength(TEXT_MAX)],
  },
  { key: 'providerHomeUrl', label: 'Provider Home URL', ...both((p) => p.providerHomeUrl), validators: [notBlank, url] },
  { key: 'providerName', label: 'Provider Name', ...both((p) => p.providerName), validators: [notBlank, maxLength(NAME_MAX)] },
  {
    key: 'providerDescription',
    label: 'Provider Description',
    ...both((p) => p.providerDescription),
    validators: [notBlank, minLength, maxLength(TEXT_MAX)],
  },
  { key: 'providerLocation', label: 'Provider Location', ...both((p) => p.providerLocation), validators: [notBlank, countryCode] },
  {
    key: 'providerCode',
    label: 'Provider Code',
    ...both((p) => p.providerCode),
    validators: [notBlank, maxLength(NAME_MAX), providerCode],
  },
  { key: 'institutionName', label: 'Institution Name', ...both((p) => p.institutionName), validators: [notBlank, maxLength(NAME_MAX)] },
  {
    key: 'institutionHomeUrl',
    label: 'Institution Home URL',
    ...both((p) => p.institutionHomeUrl),
    validators: [notBlank, institutionUrl],
  },
  {
    key: 'institutionDescription',
    label: 'Institution Description',
    ...both((p) => p.institutionDescription),
    validators: [notBlank, minLength, maxLength(TEXT_MAX)],
  },
  {
    key: 'institutionLocation',
    label: 'Institution Location',
    ...both((p) => p.institutionLocation),
    validators: [notBlank, countryCode],
  },
  // Not a chain of the reference, which never stored the ROR id; optional, and refused only when not one.
  { key: 'institutionRorId', label: 'Institution ROR ID', ...both((p) => p.institutionRorId), validators: [rorId] },
  {
    key: 'prefix',
    label: 'Prefix',
    prefixValue: (p) => p.requestedPrefix,
    resourceValue: (p) => p.namespacePrefix,
    validators: [notBlank, maxLength(NAME_MAX), prefix],
  },
  {
    key: 'providerUrlPattern',
    label: 'Provider URL Pattern',
    ...both((p) => p.providerUrlPattern),
    validators: [notBlank, maxLength(TEXT_MAX), containsIdPlaceholder, similarUrlPattern, sampleUrl],
  },
  {
    key: 'sampleId',
    label: 'Sample ID',
    ...both((p) => p.sampleId),
    validators: [notBlank, maxLength(NAME_MAX), sampleIdMatchesPattern, sampleUrl],
  },
  {
    key: 'idRegexPattern',
    label: 'ID Regex Pattern',
    prefixValue: (p) => p.idRegexPattern,
    // The ReDoS check comes before RegexSyntax's worker-thread test, which a hostile pattern would keep busy.
    validators: [notBlank, maxLength(PATTERN_MAX), cannotBacktrackCatastrophically, regexSyntax, sampleIdMatchesPattern],
  },
  // Optional fields: accepted whatever they hold (the payload reader already insists on their types).
  { key: 'supportingReferences', label: 'Supporting References', validators: [] },
  { key: 'additionalInformation', label: 'Additional Information', validators: [] },
  {
    key: 'requesterName',
    label: 'Requester Name',
    ...both((p) => p.requester?.name ?? null),
    validators: [notBlank, maxLength(NAME_MAX)],
  },
  {
    key: 'requesterEmail',
    label: 'Requester Email',
    ...both((p) => p.requester?.email ?? null),
    validators: [notBlank, maxLength(NAME_MAX), email],
  },
  {
    key: 'authHelpUrl',
    label: 'Authentication Instructions URL',
    ...both((p) => p.authHelpUrl),
    condition: isProtected,
    validators: [notBlank, url],
  },
  {
    key: 'authHelpDescription',
    label: 'Authentication Instructions',
    ...both((p) => p.authHelpDescription),
    condition: isProtected,
    validators: [notBlank, minLength, maxLength(TEXT_MAX)],
  },
];

const chainsByKey = new Map<ChainKey, Chain>(CHAINS.map((chain) => [chain.key, chain]));

export function chainFor(key: ChainKey): Chain {
  const chain = chainsByKey.get(key);
  if (!chain) throw new Error(`Unknown validation chain ${key}`);
  return chain;
}
