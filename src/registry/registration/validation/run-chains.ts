/**
 * Running the validation chains of chains.ts: one chain for a field validator endpoint, every chain for a
 * registration request.
 *
 * Usage (registerPrefix / registerResource):
 *
 *   const payload = normaliseRegistrationPayload(body.payload);        // payload.ts; InvalidPayloadError -> 400
 *   const messages = await validateAll('prefix', payload, deps);        // [] when the request is valid
 *
 * Errors: a URL check that is still running becomes a failure message of its chain
 * (`<Label>: the URL check is still running; please retry in a few seconds`), so the request is refused
 * and the client retries; CheckUnavailableError (the queue or the regex workers cannot be reached) is NOT a
 * message: the returned promise rejects with it, and the caller answers 503 (see validateField in
 * field-validation.ts). Database errors reject as well.
 */
import type { ChainFailure, ChainKey } from '../../model/request-validation.js';
import { chainFor, CHAINS, type Chain } from './chains.js';
import type { RegistrationPayload } from '../../model/registration-payload.js';
import { RunMemo, type RegistrationDeps, type RequestKind, type ValidationContext } from './validation-context.js';

export type { RegistrationPayload } from '../../model/registration-payload.js';
export { RunMemo, type RegistrationDeps, type RequestKind } from './validation-context.js';
export { CachedRegistryLookups, directLookups, type RegistryLookups } from './registry-lookups.js';

type Outcome = string | null | Promise<string | null>;

// Continues from rule `index`; stays synchronous while the rules are, so a chain of pure rules awaits nothing.
function runRules(chain: Chain, value: string, context: ValidationContext, index: number): Outcome {
  const { validators } = chain;
  for (let i = index; i < validators.length; i++) {
    const outcome = validators[i]!(value, context);
    if (outcome === null) continue;
    if (typeof outcome === 'string') return outcome;
    return outcome.then((message) => message ?? runRules(chain, value, context, i + 1));
  }
  return null;
}

function startChain(chain: Chain, kind: RequestKind, payload: RegistrationPayload, deps: RegistrationDeps, memo: RunMemo): Outcome {
  const get = kind === 'prefix' ? chain.prefixValue : chain.resourceValue;
  if (!get || chain.validators.length === 0) return null;
  if (chain.condition && !chain.condition(payload)) return null;
  const context: ValidationContext = { kind, payload, deps, label: chain.label, memo };
  return runRules(chain, get(payload) ?? '', context, 0);
}

/**
 * Runs one chain on a normalised payload and resolves to its first failure message, or null when the value
 * passes (or the chain does not apply to this kind of request, or its condition does not hold). Pass the
 * same `memo` to several calls that belong to one request, so that they share lookups and checks.
 */
export async function runChain(
  key: ChainKey,
  kind: RequestKind,
  payload: RegistrationPayload,
  deps: RegistrationDeps,
  memo: RunMemo = new RunMemo(),
): Promise<string | null> {
  return startChain(chainFor(key), kind, payload, deps, memo);
}

/**
 * Runs the chains one after the other and resolves to the first failure message of the first failing
 * chain, or null. (validateRequester: the requester's email is checked only once the name passes.)
 */
export async function runChains(
  keys: readonly ChainKey[],
  kind: RequestKind,
  payload: RegistrationPayload,
  deps: RegistrationDeps,
  memo: RunMemo = new RunMemo(),
): Promise<string | null> {
  for (const key of keys) {
    const message = await startChain(chainFor(key), kind, payload, deps, memo);
    if (message !== null) return message;
  }
  return null;
}

/**
 * Runs EVERY chain that applies to `kind` and resolves to all failure messages (at most one per chain), in
 * chain order (registry-behaviour.md §2.2); an empty array means the request is valid. The chains run
 * concurrently (their slow checks overlap) while each chain still stops at its first failure; the sample
 * URL, the (pattern, sample id) test and the namespace lookups are done once for the whole call.
 */
export async function validateAll(kind: RequestKind, payload: RegistrationPayload, deps: RegistrationDeps): Promise<string[]> {
  return (await validateAllByChain(kind, payload, deps)).map((failure) => failure.message);
}

/** validateAll with the chain of each message (the pages' forms put each message next to its field). */
export async function validateAllByChain(kind: RequestKind, payload: RegistrationPayload, deps: RegistrationDeps): Promise<ChainFailure[]> {
  const memo = new RunMemo();
  const outcomes = await Promise.all(CHAINS.map((chain) => startChain(chain, kind, payload, deps, memo)));
  const failures: ChainFailure[] = [];
  outcomes.forEach((message, i) => {
    if (message !== null) failures.push({ chain: CHAINS[i]!.key, message });
  });
  return failures;
}
