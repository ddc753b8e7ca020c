/**
 * Which patterns JavaScript's own (backtracking) regex engine was asked to test while `act` ran: the proof
 * that a hostile input was answered without backtracking, where a time bound would be a guess about the
 * machine. A test of `source` is recorded and answered false without running it, so that a regression fails
 * the assertion instead of hanging the test for seconds or hours.
 */
export function backtrackingTestsDuring(source: string, act: () => void): number {
  const original = RegExp.prototype.test;
  const watched = new RegExp(source).source;
  let tested = 0;
  RegExp.prototype.test = function test(this: RegExp, input: string): boolean {
    if (this.source !== watched) return original.call(this, input);
    tested++;
    return false;
  };
  try {
    act();
  } finally {
    RegExp.prototype.test = original;
  }
  return tested;
}
