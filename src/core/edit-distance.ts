/**
 * Levenshtein distance for reverse lookup by similarity (resolver-behaviour.md §3.5), with the cost of each
 * call recorded so that a lookup can bound its own work (see nearest-entries.ts).
 */
import { distance as blockDistance } from 'fastest-levenshtein';

let lastWork = 0;

/**
 * What the last editDistance call cost, in steps of the bit-parallel loop over one machine word (a few
 * nanoseconds each): about the longer string's length per 32 characters of the shorter one, once their
 * common prefix and suffix are set aside.
 */
export function lastEditDistanceWork(): number {
  return lastWork;
}

/** Levenshtein distance over UTF-16 code units, as commons-text computes it for Java strings. */
export function editDistance(a: string, b: string): number {
  // A common prefix or suffix never changes the distance; the URL and a filled template usually share
  // the accession and often the host, which leaves a short remainder for the bit-parallel part.
  const shorterLength = Math.min(a.length, b.length);
  let start = 0;
  while (start < shorterLength && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let end = 0;
  while (end < shorterLength - start && a.charCodeAt(a.length - 1 - end) === b.charCodeAt(b.length - 1 - end)) end++;
  const aLength = a.length - start - end;
  const bLength = b.length - start - end;
  // Comparing characters costs a fraction of a Myers step.
  lastWork = 1 + ((start + end) >> 2);
  if (aLength === 0) return bLength;
  if (bLength === 0) return aLength;
  // Myers' algorithm needs only the shorter string in machine words; fastest-levenshtein always puts the
  // longer one there, which is several times slower for the URL lengths seen here.
  const aShorter = aLength <= bLength;
  const pattern = aShorter ? a : b;
  const text = aShorter ? b : a;
  const patternLength = aShorter ? aLength : bLength;
  const textLength = aShorter ? bLength : aLength;
  lastWork += Math.ceil(patternLength / 32) * textLength;
  if (patternLength <= 32) return myers32(pattern, text, start, patternLength, textLength);
  if (patternLength <= 64) return myers64(pattern, text, start, patternLength, textLength);
  return blockDistance(pattern.slice(start, start + patternLength), text.slice(start, start + textLength));
}

const peqLow = new Int32Array(0x10000);
const peqHigh = new Int32Array(0x10000);

// Both run on pattern[start, start + n) against text[start, start + m), sparing the slices.
function myers32(pattern: string, text: string, start: number, n: number, m: number): number {
  const last = 1 << (n - 1);
  for (let i = 0; i < n; i++) peqLow[pattern.charCodeAt(start + i)]! |= 1 << i;
  let pv = -1;
  let mv = 0;
  let score = n;
  for (let j = start; j < start + m; j++) {
    const eq = peqLow[text.charCodeAt(j)]!;
    const xv = eq | mv;
    const xh = (((eq & pv) + pv) ^ pv) | eq;
    let ph = mv | ~(xh | pv);
    const mh = pv & xh;
    if (ph & last) score++;
    else if (mh & last) score--;
    ph = (ph << 1) | 1;
    pv = (mh << 1) | ~(xv | ph);
    mv = ph & xv;
  }
  for (let i = 0; i < n; i++) peqLow[pattern.charCodeAt(start + i)] = 0;
  return score;
}

// Two 32-bit blocks of Myers' block algorithm, the second fed by the first's horizontal delta.
function myers64(pattern: string, text: string, start: number, n: number, m: number): number {
  const last = 1 << (n - 33);
  for (let i = 0; i < 32; i++) peqLow[pattern.charCodeAt(start + i)]! |= 1 << i;
  for (let i = 32; i < n; i++) peqHigh[pattern.charCodeAt(start + i)]! |= 1 << (i - 32);
  let pvLow = -1;
  let mvLow = 0;
  let pvHigh = -1;
  let mvHigh = 0;
  let score = n;
  for (let j = start; j < start + m; j++) {
    const c = text.charCodeAt(j);
    let eq = peqLow[c]!;
    let xv = eq | mvLow;
    let xh = (((eq & pvLow) + pvLow) ^ pvLow) | eq;
    let ph = mvLow | ~(xh | pvLow);
    let mh = pvLow & xh;
    const carry = (ph >>> 31) - (mh >>> 31);
    ph = (ph << 1) | 1;
    mh <<= 1;
    pvLow = mh | ~(xv | ph);
    mvLow = ph & xv;

    eq = peqHigh[c]!;
    xv = eq | mvHigh;
    if (carry < 0) eq |= 1;
    xh = (((eq & pvHigh) + pvHigh) ^ pvHigh) | eq;
    ph = mvHigh | ~(xh | pvHigh);
    mh = pvHigh & xh;
    if (ph & last) score++;
    else if (mh & last) score--;
    ph <<= 1;
    mh <<= 1;
    if (carry < 0) mh |= 1;
    else if (carry > 0) ph |= 1;
    pvHigh = mh | ~(xv | ph);
    mvHigh = ph & xv;
  }
  for (let i = 0; i < 32; i++) peqLow[pattern.charCodeAt(start + i)] = 0;
  for (let i = 32; i < n; i++) peqHigh[pattern.charCodeAt(start + i)] = 0;
  return score;
}
