/**
 * The rules of registration validation (registry-behaviour.md §2.3), one small function each, with the
 * reference's messages except where the interface asks for more (a malformed URL's message names the
 * value). Rules without I/O are synchronous and allocate nothing on success: the field validators are
 * called on every keystroke pause of the registration form.
 */
import isEmailModule from 'validator/lib/isEmail.js';
import isURLModule from 'validator/lib/isURL.js';
import { countries } from '../../../../migrations/data/iso-3166-1.js';
import { bareRorId, rorIdProblem } from '../../../core/ror-id.js';
import { hasText } from '../../model/registration-payload.js';
import { writtenCompactId, type WrittenFormSource } from '../../../core/lui-prefix.js';
import { CheckStillRunningError, type RegexVerdict } from '../../model/registration-checks.js';
import type { SimilarResource } from './registry-lookups.js';
import type { ValidationContext, Validator } from './validation-context.js';

// validator's CommonJS files export the function both as module.exports and as its `default` property;
// the types declare only the latter.
const isEmail = isEmailModule.default;
const isURL = isURLModule.default;

/** Stored URL columns (home URLs, URL patterns, auth help URL) hold at most this many characters. */
export const URL_MAX_LENGTH = 2000;

const HAS_TEXT = /\S/;

export const notBlank: Validator = (value, { label }) => (HAS_TEXT.test(value) ? null : `${label} is required`);

/**
 * An optional ROR id is blank or a ROR id (core/ror-id.ts, the rule a curator's edit of an institution
 * follows too): acceptance keeps it on the institution it creates, and the pages link to it.
 */
export const rorId: Validator = (value) => (HAS_TEXT.test(value) ? rorIdProblem(value) : null);

/** Refuses what the column it is stored in could not hold (a 500 at registration otherwise). */
export function maxLength(limit: number): Validator {
  return (value, { label }) => (value.length > limit ? `${label} is too long` : null);
}

// The characters String.prototype.trim and \s treat as whitespace.
function isSpace(code: number): boolean {
  return (
    code === 32 ||
    (code >= 9 && code <= 13) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * Length of the text once trimmed and with each run of whitespace collapsed to one space, counted without
 * building that text; it stops counting once past `enough`.
 */
export function collapsedLength(value: string, enough = Infinity): number {
  let length = 0;
  let pendingSpace = false;
  for (let i = 0; i < value.length && length <= enough; i++) {
    if (isSpace(value.charCodeAt(i))) {
      pendingSpace = length > 0;
    } else {
      if (pendingSpace) {
        length++;
        pendingSpace = false;
      }
      length++;
    }
  }
  return length;
}

/** The interface's rule: LONGER than the minimum (the reference let exactly the minimum pass). */
export const minLength: Validator = (value, { label, deps }) => {
  const minimum = deps.minDescriptionLength;
  if (value.length > minimum && collapsedLength(value, minimum) > minimum) return null;
  return `${label} MUST be longer than ${minimum} characters`;
};

const COUNTRY_CODES: ReadonlySet<string> = new Set(countries.map(([code]) => code));

/** One of the 249 ISO 3166-1 alpha-2 codes (the locations table holds the same list), in any case. */
export const countryCode: Validator = (value, { label }) =>
  value.length === 2 && COUNTRY_CODES.has(value.toUpperCase()) ? null : `Invalid code for ${label}, please use one of the 2 digit ISO 3166 codes`;

// Like the reference's Apache EmailValidator: no local addresses, no bare top-level domains, no IP hosts.
const EMAIL_OPTIONS = { require_tld: true, allow_ip_domain: false } as const;

export const email: Validator = (value) => (isEmail(value, EMAIL_OPTIONS) ? null : `${value} is not a valid email address`);

// ftp is syntactically accepted so that an ftp:// URL gets the more helpful "must be a HTTP(S) URL".
// Hosts without a dot (localhost) pass as with the reference's ALLOW_LOCAL_URLS; the URL checker refuses
// private and local addresses when it fetches.
const URL_OPTIONS = {
  protocols: ['http', 'https', 'ftp'],
  require_protocol: true,
  require_valid_protocol: true,
  require_tld: false,
  allow_underscores: true,
  max_allowed_length: URL_MAX_LENGTH,
};
const HTTP_SCHEME = /^https?:\/\//i;

/** The syntax part of the Url rule: null when `value` is a well-formed http(s) URL of a storable length. */
export function urlSyntaxMessage(value: string, label: string): string | null {
  if (value.length > URL_MAX_LENGTH) return `${label} is too long`;
  if (!isURL(value, URL_OPTIONS) || !URL.canParse(value)) {
    return `${label} '${value}' is not a valid URL, make sure it starts with 'http://' or 'https://'`;
  }
  if (!HTTP_SCHEME.test(value)) return `${label} must be a HTTP(S) URL`;
  return null;
}

async function liveUrlMessage(context: ValidationContext, url: string, isProtected: boolean): Promise<string | null> {
  try {
    return await context.memo.urlCheck(context.deps, url, isProtected);
  } catch (error) {
    // Not a verdict on the URL: the worker has not answered yet, and the form will ask again.
    if (error instanceof CheckStillRunningError) return `${context.label}: the URL check is still running; please retry in a few seconds`;
    throw error;
  }
}

/** Home URLs (provider, institution, authentication help): well-formed, then working, never "protected". */
export const url: Validator = (value, context) => urlSyntaxMessage(value, context.label) ?? liveUrlMessage(context, value, false);

/**
 * The institution's home URL: as any home URL, except that the home page of the registry's own institution
 * with the request's ROR id (what the form's ROR lookup fills in) is not fetched again. The registry knows
 * that institution already, and a slow or unreachable site must not hold the request up (issue 23 item 6).
 */
export const institutionUrl: Validator = async (value, context) => {
  const syntax = urlSyntaxMessage(value, context.label);
  if (syntax !== null) return syntax;
  const rorId = context.payload.institutionRorId;
  if (hasText(rorId) && bareRorId(rorId) !== undefined && (await context.deps.lookups.institutionHomeUrl(rorId)) === value) return null;
  return liveUrlMessage(context, value, false);
};

export const containsIdPlaceholder: Validator = (value, { label }) =>
  value.includes('{$id}') ? null : `${label} must include the placeholder {$id}`;

/**
 * The sample URL (the pattern with every `{$id}` replaced by the sample id, unencoded, as the reference
 * does) must be well-formed and working; "protected" when the request says its URLs are. Passes while
 * either part is missing: that part's own chain reports it.
 */
export const sampleUrl: Validator = (_value, context) => {
  const { providerUrlPattern, sampleId, protectedUrls } = context.payload;
  if (!hasText(providerUrlPattern) || !hasText(sampleId)) return null;
  const built = providerUrlPattern.replaceAll('{$id}', sampleId);
  return urlSyntaxMessage(built, context.label) ?? liveUrlMessage(context, built, protectedUrls);
};

async function regexVerdict(context: ValidationContext, pattern: string, sample: string | null): Promise<RegexVerdict | string> {
  try {
    return await context.memo.regexTest(context.deps, pattern, sample);
  } catch (error) {
    if (error instanceof CheckStillRunningError) return `${context.label}: the pattern check is still running; please retry in a few seconds`;
    throw error;
  }
}

/**
 * The pattern must compile (with the dialect and time bound of the injected RegexTest). The sample, when
 * there is one, is tested in the same call so that SampleIdMatchesPattern reuses the verdict.
 */
export const regexSyntax: Validator = async (value, context) => {
  const sample = context.payload.sampleId;
  const verdict = await regexVerdict(context, value, hasText(sample) ? sample : null);
  if (typeof verdict === 'string') return verdict;
  return verdict.compiles ? null : (verdict.error ?? 'Invalid regex');
};

const SAMPLE_MISMATCH = 'Sample ID does not match ID pattern';

async function sampleMatches(context: ValidationContext, pattern: string, sampleId: string): Promise<string | null> {
  const verdict = await regexVerdict(context, pattern, sampleId);
  if (typeof verdict === 'string') return verdict;
  // A pattern that does not compile is RegexSyntax's to report (prefix requests) or a curator's (stored).
  if (!verdict.compiles) return null;
  return verdict.matches === false ? SAMPLE_MISMATCH : null;
}

/**
 * Whether the sample id matches `source.pattern` as typed or, where the identifiers start with the prefix
 * (`namespaceEmbeddedInLui`), as the namespace writes it (core/lui-prefix.ts): the registry keeps such ids
 * without the prefix (chebi's sample is `36927` beside `^CHEBI:\d+$`) and the forms ask for them so, which
 * the reference's check refused. An id typed with the prefix still passes as before.
 */
async function sampleMatchesWritten(context: ValidationContext, source: WrittenFormSource, sampleId: string): Promise<string | null> {
  const asTyped = await sampleMatches(context, source.pattern, sampleId);
  if (asTyped !== SAMPLE_MISMATCH || !source.namespaceEmbeddedInLui) return asTyped;
  const written = writtenCompactId(source, sampleId);
  return written === sampleId ? asTyped : sampleMatches(context, source.pattern, written);
}

/**
 * Prefix requests: the sample id matches the requested pattern as a whole. Resource requests: it matches
 * the stored pattern of the namespace the provider joins. Either way with or without an embedded prefix.
 */
export const sampleIdMatchesPattern: Validator = async (_value, context) => {
  const { sampleId, idRegexPattern, namespacePrefix, requestedPrefix, namespaceEmbeddedInLui } = context.payload;
  if (context.kind === 'prefix') {
    if (!hasText(idRegexPattern) || !hasText(sampleId)) return null;
    const prefix = hasText(requestedPrefix) ? requestedPrefix : '';
    return sampleMatchesWritten(context, { prefix, pattern: idRegexPattern, sampleId, namespaceEmbeddedInLui: namespaceEmbeddedInLui && prefix !== '' }, sampleId);
  }
  if (!hasText(namespacePrefix)) return null;
  const namespace = await context.memo.namespace(context.deps, namespacePrefix);
  if (!namespace) return `Prefix ${namespacePrefix} does not exist`;
  if (!hasText(sampleId)) return null;
  return sampleMatchesWritten(context, namespace, sampleId);
};

const PREFIX_SYNTAX = /^[a-z0-9_.]+$/;

/**
 * Prefix requests: the requested prefix is well-formed and free (whatever its case). Resource requests: the
 * namespace exists and still takes new providers.
 */
export const prefix: Validator = async (value, context) => {
  if (context.kind === 'prefix') {
    if (!PREFIX_SYNTAX.test(value)) return 'Requested prefix can only contain lowercase characters, numbers, underscores and dots';
    return (await context.memo.namespace(context.deps, value)) ? `Prefix '${value}' already exists` : null;
  }
  const namespace = await context.memo.namespace(context.deps, value);
  if (!namespace) return `Prefix '${value}' IS NOT REGISTERED`;
  return namespace.deprecated ? `Prefix '${value}' is DEPRECATED, new resources are not allowed` : null;
};

/**
 * A provider code never equals a prefix (whatever the case: `{code}/{prefix}:{id}` and `{prefix}:{id}` must
 * not be confused); for a new provider it is also unique, case-insensitively, within its namespace.
 */
export const providerCode: Validator = async (value, context) => {
  const { deps, memo } = context;
  if (await memo.namespace(deps, value)) return `Provider codes must be DIFFERENT from existing prefixes! Namespace '${value}' exists.`;
  const namespacePrefix = context.payload.namespacePrefix;
  if (context.kind === 'prefix' || !hasText(namespacePrefix)) return null;
  const namespace = await memo.namespace(deps, namespacePrefix);
  if (!namespace) return `Namespace with prefix '${namespacePrefix}' does not exist`;
  const taken = await deps.lookups.providerCodeTaken(namespace.id, value);
  return taken ? 'Provider codes must be UNIQUE within a namespace! Please pick another code.' : null;
};

/**
 * A URL pattern much like an existing one (pg_trgm similarity above the threshold) probably means the
 * namespace or provider exists already. Unlike the reference, a resource request is compared only with the
 * active resources of OTHER active namespaces: a second provider of a namespace naturally looks like the
 * first, and a deprecated one is no alternative to suggest. Prefix requests are compared with every
 * resource, as the reference does.
 */
export const similarUrlPattern: Validator = async (value, context) => {
  const { deps, payload, kind } = context;
  const namespacePrefix = kind === 'resource' && hasText(payload.namespacePrefix) ? payload.namespacePrefix : null;
  const found = await deps.lookups.similarResource(value, { kind, namespacePrefix, threshold: deps.similarityThreshold });
  return found ? similarPatternMessage(context, found) : null;
};

function similarPatternMessage(context: ValidationContext, found: SimilarResource): string {
  const { sampleId, providerCode: requestedCode } = context.payload;
  let message = 'URL Pattern is similar to existing registry entry.';
  if (hasText(sampleId)) {
    // The reference adds the existing provider's code when the request names a code of its own; it printed
    // an empty code as '//', which no resolver answers, so an empty code is left out here.
    const withCode = hasText(requestedCode) && requestedCode !== 'CURATOR_REVIEW' && hasText(found.providerCode);
    const path = withCode ? `/${found.providerCode}/` : '/';
    message += ` The URL ${context.deps.publicResolverUrl}${path}${found.prefix}:${sampleId} should be what you want.`;
  } else {
    message += ` You should be able to use the existing '${found.prefix}' namespace.`;
  }
  return `${message} Please contact us if you need any assistance.`;
}
