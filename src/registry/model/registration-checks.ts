/**
 * The two slow or dangerous checks of registration validation, behind interfaces so that validators do not
 * care how they run: URL checks go through the queue to a worker process (the API process never fetches a
 * user-supplied URL), and user-supplied regular expressions run off the main thread with a time bound.
 */

export interface UrlCheckOptions {
  /** Resources behind a login: 401, 403, 407 and 451 also count as working. */
  isProtected: boolean;
}

/**
 * Resolves to null when the URL points to a working document, or to the failure message to show
 * (e.g. `Status 404 NOT_FOUND is not acceptable for URL https://...`). Rejects with CheckStillRunningError
 * when the worker has not answered within the wait bound, and with CheckUnavailableError when the queue
 * cannot be reached.
 */
export type UrlCheck = (url: string, options: UrlCheckOptions) => Promise<string | null>;

export interface RegexVerdict {
  /** False when the pattern does not compile (or is refused: too long, too slow). */
  compiles: boolean;
  /** Why it was refused, e.g. `Invalid regex: Unterminated group`. */
  error?: string;
  /** Whole-string match of the sample, when one was given and the pattern compiles. */
  matches?: boolean;
}

/**
 * Compiles `pattern` and tests `sample` against it as a whole-string match, within a time bound. `client`
 * (the requester's address) is what the checks are shared fairly between; internal callers leave it out.
 */
export type RegexTest = (pattern: string, sample: string | null, client?: string) => Promise<RegexVerdict>;

/** The check is queued or running but did not finish within the wait bound: the client should retry. */
export class CheckStillRunningError extends Error {
  override name = 'CheckStillRunningError';
}

/** The check could not be queued (Redis down): a retryable failure, never a verdict on the value. */
export class CheckUnavailableError extends Error {
  override name = 'CheckUnavailableError';
}

/**
 * The check was not run for now: the client already has as many checks under way as it may (429), or the
 * checks are too busy to take it within their wait bound (503). No verdict on the value: retry after
 * `retryAfterSeconds`.
 */
export class CheckBusyError extends CheckUnavailableError {
  override name = 'CheckBusyError';

  constructor(
    message: string,
    readonly status: 429 | 503,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}
