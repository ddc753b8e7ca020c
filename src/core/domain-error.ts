/**
 * What went wrong, as the code that found out can say it without knowing how it will be answered: the one
 * error mapping (src/http/error-translator.ts) gives each kind its status.
 *  - invalid: the request cannot be served as sent
 *  - not-found: what it names does not exist
 *  - conflict: it contradicts the current state (an operation on a closed session, say)
 *  - busy: the requester has as much under way as it may; later, the same request may succeed
 *  - unavailable: something the answer needs cannot be reached now; later, the same request may succeed
 *  - rate-limited: the requester has used up its quota of such requests for the current window; once the
 *    window has passed (retryAfterSeconds), the same request may succeed
 *  - unauthenticated: the requester did not say who it is, and must (challenge: how it may)
 *  - forbidden: the requester is known, or not, and may not do this
 *  - gone: what it names existed and no longer does
 *  - unprocessable: well-formed, but at odds with what the requester sent before (a reused idempotency key)
 */
export type DomainErrorKind =
  | 'invalid'
  | 'not-found'
  | 'conflict'
  | 'busy'
  | 'unavailable'
  | 'rate-limited'
  | 'unauthenticated'
  | 'forbidden'
  | 'gone'
  | 'unprocessable';

/** For rate-limited: the quota used up, as the requester can be told it (the RateLimit header fields). */
export interface QuotaState {
  /** The name of the quota policy (a route family: `resolution`, `browse`, ...). */
  policy: string;
  /** Quota units allowed per window. */
  limit: number;
  windowSeconds: number;
  /** Units left in the current window. */
  remaining: number;
  /** Seconds until the window ends and the quota is whole again. */
  resetSeconds: number;
}

export interface DomainErrorOptions {
  /** For busy and unavailable: when the requester may try again. */
  retryAfterSeconds?: number;
  /** For rate-limited: the quota the requester used up. */
  quota?: QuotaState;
  /** For unauthenticated: the scheme and realm the requester should authenticate with (`Bearer realm="curation"`). */
  challenge?: string;
  /** What the answer carries beside the message, where the reference gives something (`{comment: null}`). */
  payload?: unknown;
  cause?: unknown;
}

/** A failure whose message is meant for the requester. Subclasses may work out their kind and wait. */
export class DomainError extends Error {
  readonly #kind: DomainErrorKind;
  readonly #retryAfterSeconds: number | undefined;
  readonly #quota: QuotaState | undefined;
  readonly #challenge: string | undefined;
  readonly #payload: unknown;

  constructor(kind: DomainErrorKind, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.#kind = kind;
    this.#retryAfterSeconds = options.retryAfterSeconds;
    this.#quota = options.quota;
    this.#challenge = options.challenge;
    this.#payload = options.payload;
  }

  get kind(): DomainErrorKind {
    return this.#kind;
  }

  get retryAfterSeconds(): number | undefined {
    return this.#retryAfterSeconds;
  }

  get quota(): QuotaState | undefined {
    return this.#quota;
  }

  get challenge(): string | undefined {
    return this.#challenge;
  }

  get payload(): unknown {
    return this.#payload;
  }
}

export const invalid = (message: string): DomainError => new DomainError('invalid', message);
export const notFound = (message: string): DomainError => new DomainError('not-found', message);
