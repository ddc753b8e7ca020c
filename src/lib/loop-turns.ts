/** Callers waiting for their turn, first come first served. */
const waiting: (() => void)[] = [];
let wakePending = false;

// One caller per turn of the event loop: an immediate scheduled while immediates run waits for the next turn.
function wakeNext(): void {
  wakePending = false;
  const next = waiting.shift();
  if (waiting.length > 0) {
    wakePending = true;
    setImmediate(wakeNext);
  }
  next?.();
}

/**
 * Lets the event loop read and answer what else has arrived before the caller goes on, and takes turns with
 * the other callers: one of them goes on per turn of the loop (setImmediate runs after the poll phase, where
 * new requests are read). Woken together, six requests each finishing a page of 5 ms would hold the loop
 * for 30 ms in one turn.
 */
export function nextLoopTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!wakePending) {
      wakePending = true;
      setImmediate(wakeNext);
    }
  });
}

/**
 * `items.map(write)`, `perSlice` items at a time with a turn of the event loop between slices: a large
 * answer (a whole registry, a page of 1,000 rows) written at once would hold the loop for tens of
 * milliseconds, while every other request waits.
 */
export async function mapInSlices<T, R>(items: readonly T[], write: (item: T) => R, perSlice: number): Promise<R[]> {
  const written: R[] = [];
  // More than a slice: the first waits its turn as well, as the rest of the answer will.
  const sliced = items.length > perSlice;
  for (let at = 0; at < items.length; at++) {
    if (sliced && at % perSlice === 0) await nextLoopTurn();
    written.push(write(items[at]!));
  }
  return written;
}

/** The JSON texts of `items.map(write)`, joined by commas, written as mapInSlices does. */
export async function joinJsonInSlices<T>(items: readonly T[], write: (item: T) => unknown, perSlice: number): Promise<string> {
  return (await mapInSlices(items, (item) => JSON.stringify(write(item)), perSlice)).join(',');
}
