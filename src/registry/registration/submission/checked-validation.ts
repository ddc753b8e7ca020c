/**
 * Validation of a whole request before anything is stored (registerPrefix, registerResource, amendments).
 * validateAll turns a URL check that is still running into a failure message, which suits the field
 * validators (the form asks again a second later) but not a submission: a request must not be refused for a
 * check that has not answered. So the checks are watched here, and a request whose checks did not all
 * answer is neither refused nor stored: the caller answers 503 with Retry-After.
 */
import { CheckBusyError, CheckStillRunningError, CheckUnavailableError, type RegexTest, type UrlCheck } from '../../model/registration-checks.js';
import { ChecksIncompleteError, type RequestFailure } from '../../model/request-validation.js';
import { validateAllByChain, type RegistrationDeps, type RegistrationPayload, type RequestKind } from '../validation/run-chains.js';

// When several checks did not answer, the one to report: a missing queue, then a busy one, then a running check.
const REASON_WEIGHT = { 'still-running': 0, busy: 1, unavailable: 2 } as const;

function reasonFor(error: unknown): ChecksIncompleteError['reason'] {
  if (error instanceof CheckStillRunningError) return 'still-running';
  return error instanceof CheckBusyError ? 'busy' : 'unavailable';
}

/**
 * Every failure message of the request in chain order ([] when valid). Rejects with ChecksIncompleteError
 * when a URL check or regex test did not answer (still running, queue or Redis gone mid-way: any error a
 * check throws is about the check, never a verdict on the value), and with database errors as they come.
 */
export async function validateRequest(kind: RequestKind, payload: RegistrationPayload, deps: RegistrationDeps): Promise<string[]> {
  return (await validateRequestByField(kind, payload, deps)).map((failure) => failure.message);
}

/** validateRequest with the field of each message, for the forms that show a message next to its field. */
export async function validateRequestByField(kind: RequestKind, payload: RegistrationPayload, deps: RegistrationDeps): Promise<RequestFailure[]> {
  let incomplete: ChecksIncompleteError | undefined;
  const note = (error: unknown): never => {
    const reason = reasonFor(error);
    // 'unavailable' wins: retrying soon helps a running check, not a missing queue.
    if (!incomplete || REASON_WEIGHT[reason] > REASON_WEIGHT[incomplete.reason]) incomplete = new ChecksIncompleteError(reason, { cause: error });
    throw error instanceof CheckStillRunningError || error instanceof CheckUnavailableError
      ? error
      : new CheckUnavailableError('the check failed', { cause: error });
  };
  const urlCheck: UrlCheck = (url, options) => deps.urlCheck(url, options).catch(note);
  const regexTest: RegexTest = (pattern, sample, client) => deps.regexTest(pattern, sample, client).catch(note);

  let failures: RequestFailure[];
  try {
    failures = (await validateAllByChain(kind, payload, { ...deps, urlCheck, regexTest })).map(({ chain, message }) => ({ field: chain, message }));
  } catch (error) {
    if (incomplete) throw incomplete;
    if (error instanceof CheckStillRunningError || error instanceof CheckUnavailableError) {
      throw new ChecksIncompleteError(reasonFor(error), { cause: error });
    }
    throw error;
  }
  if (incomplete) throw incomplete;
  return failures;
}
