import type { RegexTest, RegexVerdict, UrlCheck } from '../../model/registration-checks.js';
import type { RequestKind } from '../../model/request-kind.js';
import type { RegistrationPayload } from '../../model/registration-payload.js';
import type { NamespaceFacts, RegistryLookups } from './registry-lookups.js';

export type { NamespaceFacts } from './registry-lookups.js';
export type { RequestKind } from '../../model/request-kind.js';

/** What validation needs from the outside world; held by a RegistrationValidator, built once per app. */
export interface RegistrationDeps {
  /**
   * How the rules query the registry: directLookups (every question a query) where an answer must be current,
   * CachedRegistryLookups for the field validator endpoints (registry-lookups.ts).
   */
  lookups: RegistryLookups;
  /** Live check of a URL (queued to a worker: the API process never fetches user-supplied URLs). */
  urlCheck: UrlCheck;
  /** Compiles and tests a user-supplied regular expression off the main thread, within a time bound. */
  regexTest: RegexTest;
  /** Descriptions must be LONGER than this (REGISTRATION_MIN_DESCRIPTION_LENGTH). */
  minDescriptionLength: number;
  /** pg_trgm similarity above which a URL pattern counts as a duplicate (REGISTRATION_URL_PATTERN_SIMILARITY). */
  similarityThreshold: number;
  /** Base of the resolver links printed in messages, without a trailing slash (PUBLIC_RESOLVER_URL). */
  publicResolverUrl: string;
  /** The requester's address, which the regex checks are shared fairly between (set per request). */
  client?: string;
}

/**
 * Results shared by the chains of one validation call: the sample URL is used by two chains, the
 * (pattern, sample) pair by two validators, and the requested namespace by up to four. Each is computed
 * once per call and never across calls (a verdict must not outlive the request that asked for it).
 * Maps are created on first use, so a call that needs none of them allocates nothing.
 */
export class RunMemo {
  private namespaces: Map<string, Promise<NamespaceFacts | undefined>> | undefined;
  private urlChecks: Map<string, Promise<string | null>> | undefined;
  private regexTests: Map<string, Promise<RegexVerdict>> | undefined;

  /** The namespace whose prefix equals `prefix` case-insensitively (prefixes are unique that way). */
  namespace(deps: RegistrationDeps, prefix: string): Promise<NamespaceFacts | undefined> {
    this.namespaces ??= new Map();
    let found = this.namespaces.get(prefix);
    if (!found) {
      found = deps.lookups.namespace(prefix);
      this.namespaces.set(prefix, found);
    }
    return found;
  }

  urlCheck(deps: RegistrationDeps, url: string, isProtected: boolean): Promise<string | null> {
    this.urlChecks ??= new Map();
    const key = isProtected ? `p ${url}` : `o ${url}`;
    let verdict = this.urlChecks.get(key);
    if (!verdict) {
      verdict = deps.urlCheck(url, { isProtected });
      this.urlChecks.set(key, verdict);
    }
    return verdict;
  }

  regexTest(deps: RegistrationDeps, pattern: string, sample: string | null): Promise<RegexVerdict> {
    this.regexTests ??= new Map();
    // The pattern's length makes the key unambiguous whatever characters the two parts contain.
    const key = sample === null ? `n${pattern}` : `s${pattern.length}:${pattern}${sample}`;
    let verdict = this.regexTests.get(key);
    if (!verdict) {
      verdict = deps.regexTest(pattern, sample, deps.client);
      this.regexTests.set(key, verdict);
    }
    return verdict;
  }
}

/** What a validator sees besides the value of its chain. */
export interface ValidationContext {
  kind: RequestKind;
  /** The whole request: some rules read other fields (the sample URL needs the pattern and the sample id). */
  payload: RegistrationPayload;
  deps: RegistrationDeps;
  /** The chain's label, as it appears in messages (`Provider Home URL is required`). */
  label: string;
  memo: RunMemo;
}

/**
 * One rule: null when the value passes, else the message for the client. Rules that need no I/O return
 * synchronously (the chain runner then awaits nothing); the others return a promise.
 * The value is never null: a chain hands its rules '' for an absent field, which its NotBlank rule refuses
 * first.
 */
export type Validator = (value: string, context: ValidationContext) => string | null | Promise<string | null>;
