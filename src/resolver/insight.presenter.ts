import type { RegistrySnapshot } from '../core/registry-snapshot.js';
import { resolveEverySample } from '../core/sample-resolutions.js';
import { envelope, errorEnvelope, type Envelope } from '../http/envelope.js';
import type { ResolvePayload } from './resolution.presenter.js';

export interface InsightAnswer {
  status: 200 | 404;
  /** The JSON text of the reference's `ServiceResponse<ResponseResolvePayload>`. */
  json: string;
}

const NO_PROVIDERS = 'NO PROVIDERS found in the Resolution Service data set.';

// One text per snapshot: the answer is the same until the registry changes, and a few hundred kilobytes.
const answers = new WeakMap<RegistrySnapshot, InsightAnswer>();

/** The insight API's answer: every resource resolved with its sample id, `parsedCompactIdentifier` null. */
export function presentSampleResolutions(snapshot: RegistrySnapshot): InsightAnswer {
  let answer = answers.get(snapshot);
  if (!answer) {
    const resolvedResources = resolveEverySample(snapshot);
    const body: Envelope<ResolvePayload | null> =
      resolvedResources.length === 0
        ? errorEnvelope(NO_PROVIDERS)
        : envelope({ resolvedResources, parsedCompactIdentifier: null });
    answer = { status: resolvedResources.length === 0 ? 404 : 200, json: JSON.stringify(body) };
    answers.set(snapshot, answer);
  }
  return answer;
}
