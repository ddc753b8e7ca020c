/** What loop-monitor.ts (preloaded into an area) and loop-delay.ts (in the benchmark) agree on; nothing else. */

/** Period of the monitor's timer: a delay is seen to within about this much. */
export const LOOP_RESOLUTION_MS = 5;

export interface LoopReading {
  type: 'hostile:loop';
  id: number;
  /** Longest the loop was late on its timer since the last reading, in wall time. */
  maxMs: number;
  /**
   * The same stretches, counting only the main thread's CPU time in them (at most their wall time): the
   * work that held the loop. On a shared machine the wall figure also holds the time the thread waited for
   * a core; this one does not.
   */
  busyMaxMs: number;
}
