/**
 * Stand-ins for the registration checks (the queue-backed URL check and the worker-thread regex test), which
 * have tests of their own: where a test is about what the routes do with a request, not a fetch or a worker
 * thread per request.
 */
import type { RegexTest, UrlCheck } from '../../src/registry/model/registration-checks.js';

const urlCheck: UrlCheck = async () => null;

/** Every URL answers; patterns are JavaScript RegExps matched against the whole sample. */
export const regexpChecks = {
  urlCheck,
  regexTest: (async (pattern, sample) => {
    let compiled: RegExp;
    try {
      compiled = new RegExp(`^(?:${pattern})$`);
    } catch (error) {
      return { compiles: false, error: `Invalid regex: ${(error as Error).message}` };
    }
    return sample === null ? { compiles: true } : { compiles: true, matches: compiled.test(sample) };
  }) satisfies RegexTest,
};

/**
 * Every URL answers, every pattern compiles and every sample matches: for fuzzed patterns, whose real run
 * belongs to the regex tester (worker thread, time limit).
 */
export const acceptingChecks = {
  urlCheck,
  regexTest: (async (_pattern, sample) => (sample === null ? { compiles: true } : { compiles: true, matches: true })) satisfies RegexTest,
};
