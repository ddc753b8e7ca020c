/**
 * The registration benchmark's request lists: POSTs of `{"apiVersion":"1.0","payload":{...}}` to the field
 * validator endpoints, with payloads that pass (200 VALIDATION OK) and payloads that fail (400 VALIDATION
 * FAILED) as a registration form sends them, field values drawn from the real dataset. Every list is in a
 * fixed pseudo-random order, so every run sends the same requests.
 */
import { evaluateJavaRegex } from '../../src/core/java-regex.js';
import type { RequestKind } from '../../src/registry/registration/validation/validation-context.js';
import { shuffled, type BenchRequest } from '../lib/workload.js';
import type { ClassifiedEndpoint } from './endpoint-classes.js';
import { pick, type RegistrationSamples } from './samples.js';

/** Requests per endpoint and area in the mix: every endpoint is asked equally often. */
export const REQUESTS_PER_ENDPOINT = 60;
/** Of every three requests to an endpoint, this many carry a payload that fails. */
const FAILING_OF_THREE = 1;

/** Sent without a `payload` member: 400 `Payload is required`. */
const NO_PAYLOAD = Symbol('no payload');

interface Case {
  payload: unknown;
  status: 200 | 400;
}

/** The i-th passing (or failing) payload of its kind for an endpoint. */
type CaseMaker = (i: number) => Case;

interface EndpointCases {
  pass: CaseMaker[];
  fail: CaseMaker[];
}

const JSON_POST = { 'Content-Type': 'application/json' };

const ok = (payload: unknown): Case => ({ payload, status: 200 });
const bad = (payload: unknown): Case => ({ payload, status: 400 });

const LONG_TEXT = 'Instructions: sign in with an institutional account, then request access from the data steward of the project.';
const PEOPLE = ['Ann Example', 'Bao Nguyen', 'Carlos Díaz', 'Dana Okafor', 'Eero Virtanen', 'Fatima Rahman', 'Grete Larsen', 'Hiro Sato'];
const ROR_IDS = ['https://ror.org/02catss52', '02catss52', 'https://www.ror.org/05cy4wa09/', '00f54p054'];
const BAD_ROR_IDS = ['02catss5', 'https://ror.org/', 'ror:02catss52', 'https://example.org/02catss52', '12catss52'];
const BAD_EMAILS = ['ann', 'ann@example', 'ann@@example.org', 'ann example@example.org', 'ann@1.2.3.4', 'ann@localhost'];
const BAD_COUNTRY_CODES = ['XX', 'GBR', 'G', 'U K', 'ZZ', 'EU'];
const REFERENCES = ['https://doi.org/10.1093/nar/gkab1110', 'https://doi.org/10.1038/sdata.2018.29', 'PMID:29737312'];

const person = (i: number) => {
  const name = pick(PEOPLE, i);
  const [first, last] = name.toLowerCase().normalize('NFD').replace(/[^a-z ]/g, '').split(' ');
  return { name, email: `${first}.${last}${i}@example.org` };
};

const blankOrAbsent = (field: string): CaseMaker[] => [() => bad({ [field]: '' }), () => bad({}), () => bad({ [field]: ' \t\n ' })];

function locationCases(field: string, s: RegistrationSamples): EndpointCases {
  return {
    pass: [(i) => ok({ [field]: pick(s.countryCodes, i) }), (i) => ok({ [field]: pick(s.countryCodes, i + 7).toLowerCase() })],
    fail: [(i) => bad({ [field]: pick(BAD_COUNTRY_CODES, i) })],
  };
}

function providerCodeCases(kind: RequestKind, s: RegistrationSamples): EndpointCases {
  if (kind === 'prefix') {
    return {
      // A prefix request creates the namespace: a code is refused only when it is some prefix.
      pass: [(i) => ok({ providerCode: pick(s.freeProviderCodes, i) }), (i) => ok({ providerCode: `${pick(s.freeProviderCodes, i)}${i}` })],
      fail: [(i) => bad({ providerCode: pick(s.takenPrefixes, i) }), (i) => bad({ providerCode: pick(s.takenPrefixes, i + 3).toUpperCase() }), () => bad({ providerCode: '' })],
    };
  }
  return {
    pass: [
      (i) => {
        const ns = pick(s.activeNamespaces, i);
        return ok({ providerCode: `${pick(s.freeProviderCodes, i)}${i}x`, namespacePrefix: ns.prefix });
      },
      // A code another namespace's provider has is free in this one.
      (i) => {
        const code = pick(s.freeProviderCodes, i);
        const ns = s.activeNamespaces.find((n, j) => j >= i % s.activeNamespaces.length && !n.codes.has(code.toLowerCase())) ?? pick(s.activeNamespaces, i);
        return ok({ providerCode: code, namespacePrefix: ns.prefix });
      },
    ],
    fail: [
      // Taken within the namespace, whatever the case.
      (i) => {
        const provider = pick(s.providersInNamespaces, i);
        return bad({ providerCode: provider.providerCode.toUpperCase(), namespacePrefix: provider.namespacePrefix });
      },
      (i) => bad({ providerCode: pick(s.takenPrefixes, i), namespacePrefix: pick(s.activePrefixes, i) }),
      (i) => bad({ providerCode: `${pick(s.freeProviderCodes, i)}${i}x`, namespacePrefix: pick(s.freePrefixes, i) }),
    ],
  };
}

/** The payloads of each endpoint in the mix, by the endpoint's name (and the area, where they differ). */
function casesFor(endpoint: ClassifiedEndpoint, s: RegistrationSamples): EndpointCases {
  switch (endpoint.name) {
    case 'validateName':
      return {
        pass: [(i) => ok({ name: pick(s.namespaceNames, i) })],
        fail: [...blankOrAbsent('name'), () => bad({ name: 'n'.repeat(256) }), () => bad(NO_PAYLOAD)],
      };
    case 'validateDescription':
      return {
        pass: [(i) => ok({ description: pick(s.namespaceDescriptions, i) })],
        fail: [(i) => bad({ description: pick(s.providerDescriptions.short, i) }), () => bad({})],
      };
    case 'validateRequestedPrefix':
      return {
        pass: [(i) => ok({ requestedPrefix: pick(s.freePrefixes, i) })],
        fail: [
          (i) => bad({ requestedPrefix: pick(s.takenPrefixes, i) }),
          (i) => bad({ requestedPrefix: pick(s.takenPrefixes, i + 11) }),
          (i) => bad({ requestedPrefix: `${pick(s.freePrefixes, i)}-X` }),
        ],
      };
    case 'validateNamespacePrefix':
      return {
        pass: [(i) => ok({ namespacePrefix: pick(s.activePrefixes, i) }), (i) => ok({ namespacePrefix: pick(s.activePrefixes, i + 5).toUpperCase() })],
        fail: [
          (i) => bad({ namespacePrefix: pick(s.deprecatedPrefixes, i) }),
          (i) => bad({ namespacePrefix: pick(s.freePrefixes, i) }),
          () => bad({}),
        ],
      };
    case 'validateReferences':
      return {
        pass: [
          (i) => ok({ references: [pick(REFERENCES, i)] }),
          (i) => ok({ supportingReferences: [pick(REFERENCES, i), pick(REFERENCES, i + 1)] }),
          () => ok({}),
        ],
        fail: [(i) => bad({ references: [{ doi: pick(REFERENCES, i) }] })],
      };
    case 'validateProviderName':
      return {
        pass: [(i) => ok({ providerName: pick(s.providerNames, i) })],
        fail: [...blankOrAbsent('providerName'), (i) => bad({ providerName: { text: pick(s.providerNames, i) } })],
      };
    case 'validateProviderDescription':
      return {
        pass: [
          (i) => ok({ providerDescription: pick(s.providerDescriptions.long, i) }),
          // The interface's sample body carries the description under providerCode.
          (i) => ok({ providerCode: pick(s.providerDescriptions.long, i + 3) }),
        ],
        fail: [(i) => bad({ providerDescription: pick(s.providerDescriptions.short, i) }), () => bad({})],
      };
    case 'validateProviderLocation':
      return locationCases('providerLocation', s);
    case 'validateProviderCode':
      return providerCodeCases(endpoint.kind, s);
    case 'validateInstitutionName':
      return {
        pass: [(i) => ok({ institutionName: pick(s.institutionNames, i) })],
        fail: blankOrAbsent('institutionName'),
      };
    case 'validateInstitutionDescription':
      return {
        pass: [(i) => ok({ institutionDescription: pick(s.institutionDescriptions.long, i) })],
        fail: [(i) => bad({ institutionDescription: pick(s.institutionDescriptions.short, i) }), () => bad({})],
      };
    case 'validateInstitutionLocation':
      return locationCases('institutionLocation', s);
    case 'validateInstitutionRorId':
      // The format alone (core/ror-id.ts): bare, as its URL, or absent (the field is optional); nothing is
      // looked up at ROR.
      return {
        pass: [(i) => ok({ institutionRorId: pick(ROR_IDS, i) }), () => ok({})],
        fail: [(i) => bad({ institutionRorId: pick(BAD_ROR_IDS, i) })],
      };
    case 'validateAdditionalInformation':
      return {
        pass: [
          (i) => ok({ additionalInformation: `Also known as ${pick(s.namespaceNames, i)}.` }),
          (i) => ok({ additionalInformation: [pick(s.namespaceNames, i), pick(REFERENCES, i)] }),
          () => ok({}),
        ],
        fail: [(i) => bad({ additionalInformation: { note: pick(s.namespaceNames, i) } })],
      };
    case 'validateRequester':
      return {
        pass: [(i) => ok({ requester: person(i) })],
        fail: [
          () => bad({}),
          (i) => bad({ requester: { email: person(i).email } }),
          (i) => bad({ requester: { name: person(i).name } }),
          (i) => bad({ requester: { name: person(i).name, email: pick(BAD_EMAILS, i) } }),
          (i) => bad(`${person(i).name} <${person(i).email}>`),
        ],
      };
    case 'validateRequesterName':
      return {
        pass: [(i) => ok({ requester: { name: person(i).name } })],
        fail: [() => bad({ requester: { name: '  ' } }), () => bad({})],
      };
    case 'validateRequesterEmail':
      return {
        pass: [(i) => ok({ requester: { email: person(i).email } })],
        fail: [(i) => bad({ requester: { email: pick(BAD_EMAILS, i) } })],
      };
    case 'validateAuthHelpDescription':
      return {
        // Checked only for protected URLs.
        pass: [() => ok({}), () => ok({ protectedUrls: false }), () => ok({ protectedUrls: true, authHelpDescription: LONG_TEXT })],
        fail: [() => bad({ protectedUrls: true }), () => bad({ protectedUrls: true, authHelpDescription: 'Log in first.' })],
      };
    default:
      throw new Error(`no payloads for ${endpoint.path}: add its cases to bench/registration/workload.ts`);
  }
}

function postRequest(kind: string, path: string, item: Case): BenchRequest {
  const body = item.payload === NO_PAYLOAD ? { apiVersion: '1.0' } : { apiVersion: '1.0', payload: item.payload };
  return { kind, method: 'POST', path, headers: JSON_POST, body: JSON.stringify(body), intendedStatus: item.status };
}

/** Each endpoint of the mix `REQUESTS_PER_ENDPOINT` times, two passing payloads for each failing one. */
export function mixRequests(endpoints: readonly ClassifiedEndpoint[], samples: RegistrationSamples): BenchRequest[] {
  const requests: BenchRequest[] = [];
  for (const endpoint of endpoints) {
    const cases = casesFor(endpoint, samples);
    let passed = 0;
    let failed = 0;
    for (let n = 0; n < REQUESTS_PER_ENDPOINT; n++) {
      const failing = n % 3 >= 3 - FAILING_OF_THREE;
      const item = failing ? pick(cases.fail, failed)(failed++) : pick(cases.pass, passed)(passed++);
      requests.push(postRequest(`${endpoint.kind} ${endpoint.name}`, endpoint.path, item));
    }
  }
  return shuffled(requests, 20261125);
}

// Appended to a sample id until its pattern refuses it (some patterns take anything on one line).
const SAMPLE_SPOILERS = [' !', '\n'];

/**
 * A sample id the pattern refuses as Java's String.matches would (the area's rule), or null. The registry's
 * own patterns, evaluated here once: user-supplied ones only ever run in the area's worker threads.
 */
function refusedSample(pattern: string, sampleId: string): string | null {
  for (const spoiler of SAMPLE_SPOILERS) {
    const verdict = evaluateJavaRegex(pattern, `${sampleId}${spoiler}`);
    if (verdict.compiles && verdict.matches === false) return `${sampleId}${spoiler}`;
  }
  return null;
}

/**
 * validateIdRegexPattern: every namespace's own pattern with its sample id (passes), and for every other
 * namespace one failing request, in turn a sample its pattern refuses, a pattern that does not compile, and
 * no sample id (the pattern is compiled before `Sample ID is required`); each (pattern, sample) pair once.
 * There are more of them than the area's regex tester keeps verdicts for (1,000): with the list sent in a
 * fixed cycle, a pair is asked again only after its verdict has been evicted, so (nearly) every request is
 * compiled and tested in a worker thread, as a form's new pattern is.
 */
export function regexRequests(endpoint: ClassifiedEndpoint, samples: RegistrationSamples): BenchRequest[] {
  if (endpoint.name !== 'validateIdRegexPattern') throw new Error(`no payloads for ${endpoint.path}: add them to bench/registration/workload.ts`);
  const kind = `${endpoint.kind} ${endpoint.name}`;
  const requests: BenchRequest[] = [];
  const asked = new Set<string>();
  // Namespaces may share a pattern (and a sample): a pair asked twice per cycle would be a cache hit.
  const add = (item: Case) => {
    const request = postRequest(kind, endpoint.path, item);
    const key = regexPairOf(request);
    if (asked.has(key)) return;
    asked.add(key);
    requests.push(request);
  };
  samples.patterns.forEach(({ pattern, sampleId }, i) => {
    add(ok({ idRegexPattern: pattern, sampleId }));
    if (i % 2 === 1) return;
    const refused = refusedSample(pattern, sampleId);
    const failing: Case[] = [
      refused === null ? bad({ idRegexPattern: `(${pattern}`, sampleId }) : bad({ idRegexPattern: pattern, sampleId: refused }),
      bad({ idRegexPattern: `(${pattern}`, sampleId }),
      bad({ idRegexPattern: pattern }),
    ];
    add(pick(failing, i / 2));
  });
  return shuffled(requests, 20261126);
}

/** The (pattern, sample) pair a regex request asks about, as the regex tester's verdict cache keys it. */
function regexPairOf(request: BenchRequest): string {
  const { payload } = JSON.parse(request.body ?? '{}') as { payload?: { idRegexPattern?: string; sampleId?: string } };
  return JSON.stringify([payload?.idRegexPattern ?? null, payload?.sampleId ?? null]);
}

/** The distinct (pattern, sample) pairs the regex tester is asked about. */
export function distinctRegexPairs(requests: readonly BenchRequest[]): number {
  return new Set(requests.map(regexPairOf)).size;
}
