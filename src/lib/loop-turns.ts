/**
 * Lets the event loop read and answer what else has arrived before the caller goes on: setImmediate runs
 * after the poll phase, where new requests are read (a promise or nextTick would not let them in).
 */
export function nextLoopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The JSON texts of `items`, joined by commas, written a slice at a time with a turn of the event loop
 * between slices: a whole-registry answer written at once would hold the loop for tens of milliseconds.
 */
export async function joinJsonInSlices<T>(items: readonly T[], write: (item: T) => unknown, perSlice: number): Promise<string> {
  const texts: string[] = [];
  for (let at = 0; at < items.length; at++) {
    if (at > 0 && at % perSlice === 0) await nextLoopTurn();
    texts.push(JSON.stringify(write(items[at]!)));
  }
  return texts.join(',');
}
