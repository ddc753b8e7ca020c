/**
 * Which field validator endpoints the benchmark measures, read from the endpoints' own chains rather than
 * from a list kept here: an endpoint whose checks can fetch a URL (the Url and SampleUrl rules, queued to
 * the url-check worker) is left out, one that runs the user's regular expression (RegexSyntax,
 * SampleIdMatchesPattern: worker threads in the area's process) is measured on its own, and every other one
 * goes into the mix. A new endpoint is thereby classified, and measured, without touching the benchmark.
 */
import type { ChainKey } from '../../src/registry/model/request-validation.js';
import { chainFor } from '../../src/registry/registration/validation/chains.js';
import {
  PREFIX_VALIDATION_ENDPOINTS,
  RESOURCE_VALIDATION_ENDPOINTS,
  type ValidationEndpoint,
} from '../../src/registry/registration/validation/endpoints.js';
import { normaliseRegistrationPayload } from '../../src/registry/model/registration-payload.js';
import type { RequestKind } from '../../src/registry/registration/validation/validation-context.js';
import { institutionUrl, regexSyntax, sampleIdMatchesPattern, sampleUrl, url } from '../../src/registry/registration/validation/validators.js';

export type EndpointClass = 'mix' | 'regex' | 'network';

export interface ClassifiedEndpoint {
  kind: RequestKind;
  name: string;
  path: string;
  class: EndpointClass;
  /** Why it is in its class, for the report. */
  reason: string;
}

export const AREA_BASES: Record<RequestKind, string> = { prefix: '/prefixRegistrationApi', resource: '/resourceManagementApi' };

export const endpointPath = (kind: RequestKind, name: string) => `${AREA_BASES[kind]}/${name}`;

// Every text field filled, every flag set: with the empty payload, the two ends of what a payload-decided
// endpoint (validateProviderHomeUrl picks its chains by the fields present) may run.
const FULL_PAYLOAD = normaliseRegistrationPayload({
  ...Object.fromEntries(
    Object.keys(normaliseRegistrationPayload({})).map((field) => [field, field === 'references' ? ['x'] : 'x']),
  ),
  requester: { name: 'x', email: 'x' },
  namespaceEmbeddedInLui: true,
  protectedUrls: true,
  renderProtectedLanding: true,
});
const EMPTY_PAYLOAD = normaliseRegistrationPayload({});

function possibleChains(endpoint: ValidationEndpoint): ChainKey[] {
  if (typeof endpoint.chains !== 'function') return [...endpoint.chains];
  return [...new Set([...endpoint.chains(EMPTY_PAYLOAD), ...endpoint.chains(FULL_PAYLOAD)])];
}

function classify(kind: RequestKind, endpoint: ValidationEndpoint): ClassifiedEndpoint {
  const fetching: string[] = [];
  const regex: string[] = [];
  for (const key of possibleChains(endpoint)) {
    const chain = chainFor(key);
    // A chain without a getter for this kind of request passes without running its rules.
    if (!(kind === 'prefix' ? chain.prefixValue : chain.resourceValue)) continue;
    const when = chain.condition ? ' (when the request says its URLs are protected)' : '';
    if (chain.validators.includes(url)) fetching.push(`${chain.label}: live check of the URL${when}`);
    if (chain.validators.includes(institutionUrl)) {
      fetching.push(`${chain.label}: live check of the URL, unless it is the home page of the registry's institution with the request's ROR id`);
    }
    if (chain.validators.includes(sampleUrl)) {
      fetching.push(`${chain.label}: live check of the sample URL, the pattern with the sample id, whenever both are sent`);
    }
    if (chain.validators.includes(regexSyntax) || chain.validators.includes(sampleIdMatchesPattern)) {
      regex.push(`${chain.label}: compiles and tests the pattern in a worker thread`);
    }
  }
  const base = { kind, name: endpoint.name, path: endpointPath(kind, endpoint.name) };
  if (fetching.length > 0) return { ...base, class: 'network', reason: fetching.join('; ') };
  if (regex.length > 0) return { ...base, class: 'regex', reason: regex.join('; ') };
  return { ...base, class: 'mix', reason: 'no URL check, no user regex' };
}

/** Every validator endpoint of both areas with its class, prefix area first, each in the service's order. */
export function classifyEndpoints(): ClassifiedEndpoint[] {
  return [
    ...PREFIX_VALIDATION_ENDPOINTS.map((endpoint) => classify('prefix', endpoint)),
    ...RESOURCE_VALIDATION_ENDPOINTS.map((endpoint) => classify('resource', endpoint)),
  ];
}
