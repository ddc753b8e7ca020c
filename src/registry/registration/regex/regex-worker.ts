/**
 * Worker thread of the regex tester: evaluates one untrusted pattern at a time. A catastrophic pattern
 * blocks only this thread; the tester terminates it after the time bound and starts a fresh one.
 */
import { parentPort } from 'node:worker_threads';
import { evaluateJavaRegex } from '../../../core/java-regex.js';

export interface RegexJobMessage {
  id: number;
  pattern: string;
  sample: string | null;
}

export type RegexWorkerMessage =
  | { type: 'ready' }
  | { type: 'verdict'; id: number; compiles: boolean; error?: string; matches?: boolean };

if (!parentPort) throw new Error('regex-worker.js runs as a worker thread of the regex tester');
const port = parentPort;

port.on('message', (job: RegexJobMessage) => {
  let answer: RegexWorkerMessage;
  try {
    answer = { type: 'verdict', id: job.id, ...evaluateJavaRegex(job.pattern, job.sample) };
  } catch (error) {
    // V8 gives up on some patterns while matching ("Maximum call stack size exceeded" when backtracking too
    // deep); the same pattern and sample always fail the same way (Java would overflow its stack too).
    const reason = error instanceof Error ? error.message : String(error);
    answer = {
      type: 'verdict',
      id: job.id,
      compiles: false,
      error: `Invalid regex: the pattern is too complex to evaluate (${reason}); simplify it`,
    };
  }
  port.postMessage(answer);
});
port.postMessage({ type: 'ready' } satisfies RegexWorkerMessage);
