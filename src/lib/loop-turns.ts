/**
 * Lets the event loop read and answer what else has arrived before the caller goes on: setImmediate runs
 * after the poll phase, where new requests are read (a promise or nextTick would not let them in).
 */
export function nextLoopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * `items.map(write)`, `perSlice` items at a time with a turn of the event loop between slices: a large
 * answer (a whole registry, a page of 1,000 rows) written at once would hold the loop for tens of
 * milliseconds, while every other request waits.
 */
export async function mapInSlices<T, R>(items: readonly T[], write: (item: T) => R, perSlice: number): Promise<R[]> {
  const written: R[] = [];
  for (let at = 0; at < items.length; at++) {
    if (at > 0 && at % perSlice === 0) await nextLoopTurn();
    written.push(write(items[at]!));
  }
  return written;
}

/** The JSON texts of `items.map(write)`, joined by commas, written as mapInSlices does. */
export async function joinJsonInSlices<T>(items: readonly T[], write: (item: T) => unknown, perSlice: number): Promise<string> {
  return (await mapInSlices(items, (item) => JSON.stringify(write(item)), perSlice)).join(',');
}
