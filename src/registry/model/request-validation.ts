/**
 * What the features that validate a registration request or a registry edit are given (curation's
 * amendments, maintenance's edits, the desk's reviews): the interface the registration feature's
 * RegistrationValidator implements, handed to them by createRegistryApp, and the failures and errors they
 * read from it.
 */
import { DomainError, type DomainErrorKind } from '../../core/domain-error.js';
import { CheckBusyError } from './registration-checks.js';
import type { RegistrationPayload } from './registration-payload.js';
import type { RequestKind } from './request-kind.js';

/** A validation chain: one per field of a request (registration/validation/chains.ts). */
export type ChainKey =
  | 'namespaceName'
  | 'namespaceDescription'
  | 'providerHomeUrl'
  | 'providerName'
  | 'providerDescription'
  | 'providerLocation'
  | 'providerCode'
  | 'institutionName'
  | 'institutionHomeUrl'
  | 'institutionDescription'
  | 'institutionLocation'
  | 'institutionRorId'
  | 'prefix'
  | 'providerUrlPattern'
  | 'sampleId'
  | 'idRegexPattern'
  | 'supportingReferences'
  | 'additionalInformation'
  | 'requesterName'
  | 'requesterEmail'
  | 'authHelpUrl'
  | 'authHelpDescription';

/** A chain's failure: which field failed, and its message. */
export interface ChainFailure {
  chain: ChainKey;
  message: string;
}

/** A failure of a whole request's validation: the chain (or the one field without a chain) and its message. */
export interface RequestFailure {
  field: ChainKey;
  message: string;
}

/** Seconds to wait before sending the same request again while a URL check is running. */
export const STILL_RUNNING_RETRY_AFTER_SECONDS = 5;
/** Seconds to wait when the checks cannot run at all (the queue or the regex workers are unreachable). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 30;

/** The checks did not all answer: no verdict on the request, which the client should send again. */
export class ChecksIncompleteError extends DomainError {
  override name = 'ChecksIncompleteError';

  constructor(
    readonly reason: 'still-running' | 'unavailable' | 'busy',
    options?: { cause?: unknown },
  ) {
    super(
      'unavailable',
      options?.cause instanceof CheckBusyError
        ? `Nothing was stored: ${options.cause.message.charAt(0).toLowerCase()}${options.cause.message.slice(1)}`
        : reason === 'still-running'
          ? 'The live checks of the URLs in your request are still running; nothing was stored. Please send the same request again in a few seconds'
          : 'The checks of your request cannot run right now (the check queue is unreachable); nothing was stored. Please send the same request again shortly',
      options,
    );
  }

  /** Busy when the requester has too many checks under way, else unavailable. */
  override get kind(): DomainErrorKind {
    return this.cause instanceof CheckBusyError && this.cause.status === 429 ? 'busy' : 'unavailable';
  }

  override get retryAfterSeconds(): number {
    if (this.cause instanceof CheckBusyError) return this.cause.retryAfterSeconds;
    return this.reason === 'still-running' ? STILL_RUNNING_RETRY_AFTER_SECONDS : UNAVAILABLE_RETRY_AFTER_SECONDS;
  }
}

/** A URL a request's validation fetched, and what the fetch found (`unanswered`: the check did not answer yet). */
export interface UrlCheckReview {
  url: string;
  verdict: 'works' | 'fails' | 'unanswered';
  /** Why it fails. */
  message: string | null;
}

/** A stored request's validation as the curators see it (reviewRequest). */
export interface RequestReview {
  state: 'valid' | 'invalid' | 'incomplete';
  failures: RequestFailure[];
  urlChecks: UrlCheckReview[];
}

/** Registration validation with the service's settings and its slow checks (registration-validator.ts). */
export interface RequestValidation {
  /**
   * Every failure message of a whole request ([] when it is valid); rejects with ChecksIncompleteError when
   * a check did not answer. `client`: the requester's address (a curator's amendment has none).
   */
  validateRequest(kind: RequestKind, payload: RegistrationPayload, client?: string): Promise<string[]>;
  /** The failures of the given chains on `payload`, in the order of `keys` (a curator's edit of a record). */
  checkChains(kind: RequestKind, keys: readonly ChainKey[], payload: RegistrationPayload, client?: string): Promise<ChainFailure[]>;
  /** A stored request as the curators review it. */
  reviewRequest(kind: RequestKind, payload: RegistrationPayload): Promise<RequestReview>;
  /** validateRequest with the field of each message. */
  validateRequestByField(kind: RequestKind, payload: RegistrationPayload, client?: string): Promise<RequestFailure[]>;
  /**
   * A failure message in the plain words of the pages' labels (the API keeps the reference's words): what
   * the request forms and the curator desk's forms show.
   */
  plainMessage(kind: RequestKind, message: string): string;
}
