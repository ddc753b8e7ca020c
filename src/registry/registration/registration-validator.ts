import type { Config } from '../../config.js';
import type { Db } from '../../db/knex.js';
import type { RegexTest, UrlCheck } from '../model/registration-checks.js';
import type { RequestKind } from '../model/request-kind.js';
import {
  ChecksIncompleteError,
  type ChainFailure,
  type ChainKey,
  type RequestFailure,
  type RequestReview,
  type RequestValidation,
  type UrlCheckReview,
} from '../model/request-validation.js';
import { plainMessage } from './pages/plain-messages.js';
import { validateRequest, validateRequestByField } from './submission/checked-validation.js';
import type { ValidationEndpoint } from './validation/endpoints.js';
import { checkFailure, validateField, type FieldVerdict } from './validation/field-validation.js';
import type { RegistrationPayload } from '../model/registration-payload.js';
import { runChain, RunMemo } from './validation/run-chains.js';
import { CachedRegistryLookups, directLookups } from './validation/registry-lookups.js';
import type { RegistrationDeps } from './validation/validation-context.js';

export type RegistrationValidatorSettings = Pick<
  Config,
  'REGISTRATION_MIN_DESCRIPTION_LENGTH' | 'REGISTRATION_URL_PATTERN_SIMILARITY' | 'PUBLIC_RESOLVER_URL'
>;

/**
 * Registration validation with the service's settings and its two slow checks, built once per app
 * (createRegistryApp) and held by what validates: submissions, curators' amendments and the field validator
 * endpoints.
 */
export class RegistrationValidator implements RequestValidation {
  /** Every question a query: a submission or an amendment is decided on current answers. */
  private readonly current: RegistrationDeps;
  /**
   * A form asks about the same prefixes, codes and patterns on every pause in typing: the field validator
   * endpoints keep answers per registry version (a submission then asks afresh).
   */
  private readonly cached: RegistrationDeps;

  constructor(settings: RegistrationValidatorSettings, db: Db, checks: { urlCheck: UrlCheck; regexTest: RegexTest }) {
    const shared = {
      urlCheck: checks.urlCheck,
      regexTest: checks.regexTest,
      minDescriptionLength: settings.REGISTRATION_MIN_DESCRIPTION_LENGTH,
      similarityThreshold: settings.REGISTRATION_URL_PATTERN_SIMILARITY,
      publicResolverUrl: settings.PUBLIC_RESOLVER_URL,
    };
    this.current = { ...shared, lookups: directLookups(db) };
    this.cached = { ...shared, lookups: new CachedRegistryLookups(db) };
  }

  /**
   * Every failure message of a whole request ([] when it is valid); rejects with ChecksIncompleteError when
   * a check did not answer. `client`: the requester's address (a curator's amendment has none).
   */
  validateRequest(kind: RequestKind, payload: RegistrationPayload, client?: string): Promise<string[]> {
    return validateRequest(kind, payload, client === undefined ? this.current : { ...this.current, client });
  }

  /**
   * The failures of the given chains on `payload`, in the order of `keys` (at most one per chain; [] when
   * they pass): a curator's edit of a registry record, checked with the rules of the request fields it
   * corresponds to, on current answers. The chains run at once, sharing their lookups and checks. A check
   * that could not run rejects with a busy or unavailable DomainError.
   */
  async checkChains(kind: RequestKind, keys: readonly ChainKey[], payload: RegistrationPayload, client?: string): Promise<ChainFailure[]> {
    const deps = client === undefined ? this.current : { ...this.current, client };
    const memo = new RunMemo();
    try {
      const outcomes = await Promise.all(keys.map((key) => runChain(key, kind, payload, deps, memo)));
      return outcomes.flatMap((message, i) => (message === null ? [] : [{ chain: keys[i]!, message }]));
    } catch (error) {
      throw checkFailure(error);
    }
  }

  /**
   * A stored request as the curators review it: every failure by field on current answers, and each URL
   * the checks fetched with its verdict. A check that did not answer (still running, queue unreachable)
   * makes the review `incomplete` rather than failing it: the curator reloads, and the verdicts the worker
   * has cached by then answer at once.
   */
  async reviewRequest(kind: RequestKind, payload: RegistrationPayload): Promise<RequestReview> {
    const urlChecks: UrlCheckReview[] = [];
    const urlCheck: UrlCheck = async (url, options) => {
      const entry: UrlCheckReview = { url, verdict: 'unanswered', message: null };
      urlChecks.push(entry);
      const message = await this.current.urlCheck(url, options);
      entry.verdict = message === null ? 'works' : 'fails';
      entry.message = message;
      return message;
    };
    try {
      const failures = await validateRequestByField(kind, payload, { ...this.current, urlCheck });
      return { state: failures.length === 0 ? 'valid' : 'invalid', failures, urlChecks };
    } catch (error) {
      if (!(error instanceof ChecksIncompleteError)) throw error;
      return { state: 'incomplete', failures: [], urlChecks };
    }
  }

  /** validateRequest with the field of each message (the request forms show each next to its field). */
  validateRequestByField(kind: RequestKind, payload: RegistrationPayload, client?: string): Promise<RequestFailure[]> {
    return validateRequestByField(kind, payload, client === undefined ? this.current : { ...this.current, client });
  }

  plainMessage(kind: RequestKind, message: string): string {
    return plainMessage(kind, message);
  }

  /** A field validator endpoint's verdict on a request body (see field-validation.ts). */
  validateField(target: ValidationEndpoint, kind: RequestKind, body: unknown, client: string): Promise<FieldVerdict> {
    return validateField(target, kind, body, { ...this.cached, client });
  }
}
