/**
 * The field validator endpoints (`/prefixRegistrationApi/validate*`, `/resourceManagementApi/validate*`,
 * registry-behaviour.md §2.5 and interface.md §4.5): which chains each runs, and the rules the interface adds
 * to the reference's (fields that must come in pairs, the endpoint shared by the home URL and the URL pattern).
 */
import type { ChainKey } from '../../model/request-validation.js';
import { chainFor } from './chains.js';
import type { NormaliseOptions, RegistrationPayload } from '../../model/registration-payload.js';
import { runChains } from './run-chains.js';
import { RunMemo, type RegistrationDeps, type RequestKind } from './validation-context.js';
import { hasText } from '../../model/registration-payload.js';

export interface ValidationEndpoint {
  /** The path's last segment, e.g. `validateName`. */
  name: string;
  /** The chains run in order until the first failure; a function when the payload decides. */
  chains: readonly ChainKey[] | ((payload: RegistrationPayload) => readonly ChainKey[]);
  /**
   * Fields the check needs besides its own (the sample URL needs both the sample id and the pattern): once
   * the chains pass, the first of these that is blank fails with `<its label> is required`.
   */
  partners?: readonly ChainKey[];
  normalise?: NormaliseOptions;
}

const endpoint = (name: string, chains: ValidationEndpoint['chains'], extra: Partial<ValidationEndpoint> = {}): ValidationEndpoint => ({
  name,
  chains,
  ...extra,
});

const HOME_URL: readonly ChainKey[] = ['providerHomeUrl'];
const PATTERN: readonly ChainKey[] = ['providerUrlPattern'];
const HOME_URL_AND_PATTERN: readonly ChainKey[] = ['providerHomeUrl', 'providerUrlPattern'];

// The interface lists the URL pattern validator at this same path: a body carrying only a pattern is
// checked as a pattern; a body with both fields gets both checks.
function providerHomeUrlChains(payload: RegistrationPayload): readonly ChainKey[] {
  if (payload.providerHomeUrl !== null) return payload.providerUrlPattern !== null ? HOME_URL_AND_PATTERN : HOME_URL;
  return payload.providerUrlPattern !== null ? PATTERN : HOME_URL;
}

// Shared by both areas (the chains read the kind-specific fields themselves).
const commonEndpoints: readonly ValidationEndpoint[] = [
  endpoint('validateProviderHomeUrl', providerHomeUrlChains),
  endpoint('validateProviderName', ['providerName']),
  endpoint('validateProviderDescription', ['providerDescription'], { normalise: { providerCodeAsDescription: true } }),
  endpoint('validateProviderLocation', ['providerLocation']),
  endpoint('validateProviderCode', ['providerCode']),
  endpoint('validateInstitutionName', ['institutionName']),
  endpoint('validateInstitutionHomeUrl', ['institutionHomeUrl']),
  endpoint('validateInstitutionDescription', ['institutionDescription']),
  endpoint('validateInstitutionLocation', ['institutionLocation']),
  // Not in the reference: the forms check the ROR id as it is typed, as every other field.
  endpoint('validateInstitutionRorId', ['institutionRorId']),
  endpoint('validateProviderUrlPattern', ['providerUrlPattern']),
  endpoint('validateSampleId', ['sampleId'], { partners: ['providerUrlPattern'] }),
  endpoint('validateAdditionalInformation', ['additionalInformation']),
  endpoint('validateRequester', ['requesterName', 'requesterEmail']),
  endpoint('validateRequesterName', ['requesterName']),
  endpoint('validateRequesterEmail', ['requesterEmail']),
  endpoint('validateAuthHelpDescription', ['authHelpDescription']),
  endpoint('validateAuthHelpUrl', ['authHelpUrl']),
];

/** POST /prefixRegistrationApi/{name}. */
export const PREFIX_VALIDATION_ENDPOINTS: readonly ValidationEndpoint[] = [
  endpoint('validateName', ['namespaceName']),
  endpoint('validateDescription', ['namespaceDescription']),
  endpoint('validateRequestedPrefix', ['prefix']),
  endpoint('validateIdRegexPattern', ['idRegexPattern'], { partners: ['sampleId'] }),
  endpoint('validateReferences', ['supportingReferences']),
  ...commonEndpoints,
];

/** POST /resourceManagementApi/{name}. */
export const RESOURCE_VALIDATION_ENDPOINTS: readonly ValidationEndpoint[] = [
  endpoint('validateNamespacePrefix', ['prefix']),
  ...commonEndpoints,
];

/** Runs an endpoint's checks: the first failure message, or null when the field(s) pass. */
export async function validateForEndpoint(
  target: ValidationEndpoint,
  kind: RequestKind,
  payload: RegistrationPayload,
  deps: RegistrationDeps,
): Promise<string | null> {
  const keys = typeof target.chains === 'function' ? target.chains(payload) : target.chains;
  const message = await runChains(keys, kind, payload, deps, new RunMemo());
  if (message !== null || !target.partners) return message;
  for (const key of target.partners) {
    const chain = chainFor(key);
    const get = kind === 'prefix' ? chain.prefixValue : chain.resourceValue;
    if (get && !hasText(get(payload))) return `${chain.label} is required`;
  }
  return null;
}
