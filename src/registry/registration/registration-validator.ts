import type { Config } from '../../config.js';
import type { Db } from '../../db/knex.js';
import type { RegexTest, UrlCheck } from './checks.js';
import type { RequestKind } from './request-kind.js';
import { validateRequest, validateRequestByField, type RequestFailure } from './submission/checked-validation.js';
import type { ValidationEndpoint } from './validation/endpoints.js';
import { checkFailure, validateField, type FieldVerdict } from './validation/field-validation.js';
import type { RegistrationPayload } from './validation/payload.js';
import { runChains, type ChainKey } from './validation/run-chains.js';
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
export class RegistrationValidator {
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
   * The first failure message of the given chains on `payload`, or null: a curator's edit of a registry
   * record, checked with the rules of the request fields it corresponds to, on current answers. A check
   * that could not run rejects with a busy or unavailable DomainError.
   */
  async checkChains(kind: RequestKind, keys: readonly ChainKey[], payload: RegistrationPayload, client?: string): Promise<string | null> {
    try {
      return await runChains(keys, kind, payload, client === undefined ? this.current : { ...this.current, client });
    } catch (error) {
      throw checkFailure(error);
    }
  }

  /** validateRequest with the field of each message (the request forms show each next to its field). */
  validateRequestByField(kind: RequestKind, payload: RegistrationPayload, client?: string): Promise<RequestFailure[]> {
    return validateRequestByField(kind, payload, client === undefined ? this.current : { ...this.current, client });
  }

  /** A field validator endpoint's verdict on a request body (see field-validation.ts). */
  validateField(target: ValidationEndpoint, kind: RequestKind, body: unknown, client: string): Promise<FieldVerdict> {
    return validateField(target, kind, body, { ...this.cached, client });
  }
}
