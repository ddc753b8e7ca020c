/**
 * Reverse lookup: from a provider URL back to a Compact Identifier (resolver-behaviour.md §3), answered from
 * a ReverseIndex. Pure functions; the routes validate with parseReverseLookupPayload, call one of the two
 * lookups and wrap the result in the envelope.
 */
import { distance as blockDistance } from 'fastest-levenshtein';
import { matchesLuiPattern } from './lui-pattern.js';
import {
  BAG_SLOT_COUNT,
  bagSlot,
  findLongestKey,
  hostEnd,
  normalizeReverseUrl,
  type KeyCandidate,
  type KeyGroup,
  type ReverseIndex,
  type ReverseIndexEntry,
} from './reverse-index.js';

/** The wire record of interface.md §2.4; the field order is part of the contract. */
export interface ReverseMatch {
  prefix: string;
  possible_resolver_url: string | null;
  possible_resolver_curie: string | null;
  lui_pattern_match: boolean;
  similarity_score: number;
}

export interface ReverseLookupQuery {
  url: string;
  /** Blank or absent: derived from the URL. */
  accession?: string | null;
  /** Give the CURIE and URL even when the LUI pattern does not match (the reference's hidden option). */
  forceUrls?: boolean;
}

export interface ReverseLookupOptions {
  /** Base of possible_resolver_url, without a trailing slash. */
  publicResolverUrl: string;
  /** bySimilarity only; the reference's default is 5. */
  maxResults?: number;
}

export type ReverseLookupEndpoint = 'byPrefix' | 'bySimilarity';

export const MAX_URL_LENGTH = 4096;
export const MAX_ACCESSION_LENGTH = 1024;
export const DEFAULT_SIMILARITY_RESULTS = 5;

/** A request the client got wrong; `status` lets the shared error translator answer 400 with this message. */
export class ReverseLookupPayloadError extends Error {
  readonly status = 400;
  readonly expose = true;

  constructor(message: string) {
    super(message);
    this.name = 'ReverseLookupPayloadError';
  }
}

// The two endpoints of the reference word the same failure differently.
const MISSING_URL_MESSAGE: Record<ReverseLookupEndpoint, string> = {
  byPrefix: 'Invalid payload, HTTP url must be provided',
  bySimilarity: 'Invalid payload, url must be provided',
};

/** Checks the envelope's `payload` (§3.1) and returns it typed; throws ReverseLookupPayloadError. */
export function parseReverseLookupPayload(payload: unknown, endpoint: ReverseLookupEndpoint): ReverseLookupQuery {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new ReverseLookupPayloadError(MISSING_URL_MESSAGE[endpoint]);
  }
  const { url, accession, forceUrls } = payload as Record<string, unknown>;
  if (typeof url !== 'string' || isBlank(url) || !/^http/i.test(url)) {
    throw new ReverseLookupPayloadError(MISSING_URL_MESSAGE[endpoint]);
  }
  // Bounds keep the edit distances and the LUI regexes cheap whatever a client sends.
  if (url.length > MAX_URL_LENGTH) {
    throw new ReverseLookupPayloadError(`Invalid payload, url must be at most ${MAX_URL_LENGTH} characters long`);
  }
  if (accession !== undefined && accession !== null && typeof accession !== 'string') {
    throw new ReverseLookupPayloadError('Invalid payload, accession must be a string');
  }
  if (typeof accession === 'string' && accession.length > MAX_ACCESSION_LENGTH) {
    throw new ReverseLookupPayloadError(
      `Invalid payload, accession must be at most ${MAX_ACCESSION_LENGTH} characters long`,
    );
  }
  if (forceUrls !== undefined && forceUrls !== null && typeof forceUrls !== 'boolean') {
    throw new ReverseLookupPayloadError('Invalid payload, forceUrls must be true or false');
  }
  return { url, accession: accession ?? null, forceUrls: forceUrls === true };
}

/**
 * The reference's guess (§3.3), on the URL as sent: the text after the last `=`, `/` or `#`, ignoring one
 * trailing `/`. May be '' (`...?id=`), which callers treat as no accession.
 */
export function guessAccession(rawUrl: string): string | null {
  const url = rawUrl.endsWith('/') ? rawUrl.slice(0, -1) : rawUrl;
  const at = Math.max(url.lastIndexOf('='), url.lastIndexOf('/'), url.lastIndexOf('#'));
  return at === -1 ? null : url.slice(at + 1);
}

/** The one match for a URL whose pattern is known (§3.4), or null (the endpoint's 204). */
export function reverseByPrefix(
  index: ReverseIndex,
  query: ReverseLookupQuery,
  options: ReverseLookupOptions,
): ReverseMatch | null {
  const normalised = normalizeReverseUrl(query.url);
  const forceUrls = query.forceUrls === true;

  const accession = nonBlank(query.accession);
  if (accession !== null) {
    // As the reference, the key is what precedes the accession, its first occurrence winning when it
    // fits; unlike the reference, later occurrences (`bigg.ucsd.edu/compartments/c`) and keys followed by
    // extra text also count.
    const found = choicesByOccurrence(index, normalised, accession);
    const choice = found.find((f) => f.exactKey && f.choice.matches) ?? found.find((f) => f.choice.matches) ?? found[0];
    return choice ? matchFromChoice(index, choice.choice, normalised, forceUrls, options) : null;
  }

  // The reference's guess (last URL segment) right after a key: whatever the reference answers with a
  // CURIE is answered the same way (e.g. `miriam.resource:MIR:00100005`, although the longer key of `mir`
  // also fits that URL).
  const guess = nonBlank(guessAccession(query.url));
  const guessed = guess === null ? [] : choicesByOccurrence(index, normalised, guess);
  const exactGuess = guessed.find((f) => f.exactKey && f.choice.matches);
  if (exactGuess) return matchFromChoice(index, exactGuess.choice, normalised, forceUrls, options);

  // Then the id as whatever follows the longest key, less the pattern's text after `{$id}`: this finds
  // `LRG_1` in `.../LRG_1.xml`, ids followed by a fixed path (`.../P0DP23/entry`) and embedded LUIs.
  const group = findLongestKey(index, normalised, normalised.length - 1);
  if (!group) return null;
  const remainder = normalised.slice(group.key.length);
  const choice = chooseCandidate(index, group, (candidate) => stripSuffix(remainder, candidate.suffix));
  if (choice.matches) return matchFromChoice(index, choice, normalised, forceUrls, options);

  // The guess again when text the pattern does not have separates it from a key (`.../gene/?term=100010`).
  const looseGuess = guessed.find((f) => f.choice.matches);
  if (looseGuess) return matchFromChoice(index, looseGuess.choice, normalised, forceUrls, options);
  // "Send one just in case", as the reference does.
  return matchFromChoice(index, choice, normalised, forceUrls, options);
}

// Bounds the work for a URL that repeats a short accession many times.
const MAX_OCCURRENCES = 64;

interface OccurrenceChoice {
  choice: CandidateChoice;
  /** The key ends right where the id starts, as in the reference's exact-key lookup. */
  exactKey: boolean;
}

/** For each occurrence of `id` in the URL that some key precedes, the candidate chosen for it. */
function choicesByOccurrence(index: ReverseIndex, normalised: string, id: string): OccurrenceChoice[] {
  const found: OccurrenceChoice[] = [];
  let at = normalised.indexOf(id);
  for (let seen = 0; at !== -1 && seen < MAX_OCCURRENCES; seen++, at = normalised.indexOf(id, at + 1)) {
    const group = findLongestKey(index, normalised, at);
    if (group) found.push({ choice: chooseCandidate(index, group, () => id), exactKey: group.key.length === at });
  }
  return found;
}

/** The resources whose URL, filled with the accession, is nearest to the URL (§3.5); [] without accession. */
export function reverseBySimilarity(
  index: ReverseIndex,
  query: ReverseLookupQuery,
  options: ReverseLookupOptions,
): ReverseMatch[] {
  const limit = options.maxResults ?? DEFAULT_SIMILARITY_RESULTS;
  const accession = nonBlank(query.accession) ?? nonBlank(guessAccession(query.url));
  if (accession === null || limit <= 0) return [];
  const normalised = normalizeReverseUrl(query.url);
  const forceUrls = query.forceUrls === true;

  return findNearestEntries(index, normalised, accession, limit).map(({ entry, distance }) => {
    const expectedLength = entry.templateLength + (entry.templateParts.length - 1) * accession.length;
    const score = similarityScore(distance, expectedLength, normalised.length);
    const { lui, matches } = interpretLui(index, entry, accession);
    return buildMatch(entry, lui, matches, forceUrls, score, options.publicResolverUrl);
  });
}

export interface NearEntry {
  entry: ReverseIndexEntry;
  distance: number;
}

// How many entries are scored up front, before any bound exists, to make the bound tight from the start.
const SEED_SIZE = 64;
// Lower bounds at or beyond this share the last counting-sort bucket.
const BOUND_BUCKETS = 256;

let seenScratch = new Uint8Array(0);
let boundScratch = new Int32Array(0);
let rankScratch = new Int32Array(0);
let sortedBounds = new Int32Array(0);
let sortedRanks = new Int32Array(0);
const bucketStarts = new Int32Array(BOUND_BUCKETS + 2);
const queryBag = new Int32Array(BAG_SLOT_COUNT);

/**
 * The `limit` entries with the smallest Levenshtein distance between `normalisedUrl` and their template
 * filled with `accession`, ties by rank: exactly what scoring every entry and sorting would give.
 *
 * It scores a few likely entries first (those whose key starts the URL, then same-host entries of about the
 * right length), which bounds the distance that still matters. Every other entry then gets two cheap lower
 * bounds, the length difference (found by a window over entries ordered by length) and the bag distance
 * (surplus of characters counted without order; one edit changes it by at most one), and only entries whose
 * bound beats the current last place are scored, in increasing order of bound.
 */
export function findNearestEntries(
  index: ReverseIndex,
  normalisedUrl: string,
  accession: string,
  limit: number,
): NearEntry[] {
  const { entries, entriesByLength, templateLengths, bagSlots, bagCounts } = index;
  ensureScratch(entries.length);
  const seen = seenScratch;
  const seededRanks: number[] = [];
  const nearest = new NearestList(limit);
  const seed = (entry: ReverseIndexEntry): void => {
    if (seen[entry.rank] === 1) return;
    seen[entry.rank] = 1;
    seededRanks.push(entry.rank);
    nearest.offer(entry, editDistance(normalisedUrl, expectedUrl(entry, accession)));
  };

  const keyed = findLongestKey(index, normalisedUrl, normalisedUrl.length);
  if (keyed) for (const candidate of keyed.candidates) seed(candidate.entry);
  // A template this long, filled with the accession, has the URL's length.
  const targetLength = normalisedUrl.length - accession.length;
  const end = hostEnd(normalisedUrl);
  const sameHost = index.entriesByHost.get(end === -1 ? normalisedUrl : normalisedUrl.slice(0, end));
  if (sameHost) visitNearestInLength(sameHost, targetLength, SEED_SIZE, seed);

  // The query's characters less one accession: with the template's counts, this gives the bag distance
  // to the filled template without building it.
  queryBag.fill(0);
  for (let i = 0; i < normalisedUrl.length; i++) queryBag[bagSlot(normalisedUrl.charCodeAt(i))]! += 1;
  for (let i = 0; i < accession.length; i++) queryBag[bagSlot(accession.charCodeAt(i))]! -= 1;

  const seedWorst = nearest.worst();
  let kept = 0;
  let minBound = Number.POSITIVE_INFINITY;
  const keep = (entry: ReverseIndexEntry, bound: number): void => {
    boundScratch[kept] = bound;
    rankScratch[kept] = entry.rank;
    kept++;
    if (bound < minBound) minBound = bound;
  };

  const from = seedWorst === Number.POSITIVE_INFINITY ? 0 : firstAtLeast(templateLengths, targetLength - seedWorst);
  const to =
    seedWorst === Number.POSITIVE_INFINITY ? entriesByLength.length : firstAtLeast(templateLengths, targetLength + seedWorst + 1);
  for (let position = from; position < to; position++) {
    const entry = entriesByLength[position]!;
    if (seen[entry.rank] === 1) continue;
    const lengthGap = targetLength - entry.templateLength;
    let surplus = 0;
    for (let k = entry.bagStart; k < entry.bagEnd; k++) {
      const excess = bagCounts[k]! - queryBag[bagSlots[k]!]!;
      if (excess > 0) surplus += excess;
    }
    // The query's own surplus is the filled template's plus the length gap.
    const bound = Math.max(surplus, surplus + lengthGap);
    if (bound <= seedWorst) keep(entry, bound);
  }
  // Rare patterns with several placeholders keep the length bound only.
  for (const entry of index.multiPlaceholderEntries) {
    if (seen[entry.rank] === 1) continue;
    const placeholders = entry.templateParts.length - 1;
    const bound = Math.abs(normalisedUrl.length - entry.templateLength - placeholders * accession.length);
    if (bound <= seedWorst) keep(entry, bound);
  }

  // Counting sort by bound, offset by the smallest so that a very long URL, far from every template,
  // still gets ordered buckets.
  bucketStarts.fill(0);
  for (let k = 0; k < kept; k++) bucketStarts[Math.min(boundScratch[k]! - minBound, BOUND_BUCKETS) + 1]! += 1;
  for (let bucket = 1; bucket <= BOUND_BUCKETS + 1; bucket++) bucketStarts[bucket]! += bucketStarts[bucket - 1]!;
  for (let k = 0; k < kept; k++) {
    const bound = boundScratch[k]!;
    const bucket = Math.min(bound - minBound, BOUND_BUCKETS);
    const slot = bucketStarts[bucket]!;
    bucketStarts[bucket] = slot + 1;
    sortedBounds[slot] = bound;
    sortedRanks[slot] = rankScratch[k]!;
  }

  for (let k = 0; k < kept; k++) {
    const bound = sortedBounds[k]!;
    if (bound > nearest.worst()) {
      // Below the overflow bucket bounds only grow from here; inside it they are unordered.
      if (bound - minBound < BOUND_BUCKETS) break;
      continue;
    }
    const entry = entries[sortedRanks[k]!]!;
    nearest.offer(entry, editDistance(normalisedUrl, expectedUrl(entry, accession)));
  }

  for (const rank of seededRanks) seen[rank] = 0;
  return nearest.toArray();
}

/** Visits up to `count` entries of a list ordered by template length, nearest to `targetLength` first. */
function visitNearestInLength(
  list: readonly ReverseIndexEntry[],
  targetLength: number,
  count: number,
  visit: (entry: ReverseIndexEntry) => void,
): void {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle]!.templateLength < targetLength) low = middle + 1;
    else high = middle;
  }
  let below = low - 1;
  let above = low;
  for (let visited = 0; visited < count && (below >= 0 || above < list.length); visited++) {
    const takeAbove =
      below < 0 ||
      (above < list.length && list[above]!.templateLength - targetLength <= targetLength - list[below]!.templateLength);
    visit(takeAbove ? list[above++]! : list[below--]!);
  }
}

/** First position whose value is at least `value` in an ascending array. */
function firstAtLeast(sorted: Int32Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The reference's score, `100f - 100f * d / (float) max(len)` clamped to 0..100, rounded to float at each
 * step as Java does, then written with the fewest digits that give back the same float (`89.28571`).
 */
export function similarityScore(distance: number, expectedLength: number, queryLength: number): number {
  const longer = Math.max(expectedLength, queryLength);
  if (longer === 0) return 100;
  const penalty = Math.fround(Math.fround(100 * distance) / longer);
  const score = Math.min(100, Math.max(0, Math.fround(100 - penalty)));
  return shortestFloatDecimal(score);
}

function shortestFloatDecimal(value: number): number {
  for (let digits = 1; digits < 9; digits++) {
    const candidate = Number(value.toPrecision(digits));
    if (Math.fround(candidate) === value) return candidate;
  }
  return Number(value.toPrecision(9));
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
  if (aLength === 0) return bLength;
  if (bLength === 0) return aLength;
  // Myers' algorithm needs only the shorter string in machine words; fastest-levenshtein always puts the
  // longer one there, which is several times slower for the URL lengths seen here.
  const aShorter = aLength <= bLength;
  const pattern = aShorter ? a : b;
  const text = aShorter ? b : a;
  const patternLength = aShorter ? aLength : bLength;
  const textLength = aShorter ? bLength : aLength;
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

/** The best `limit` (distance, rank) pairs seen so far, kept sorted. */
class NearestList {
  readonly #limit: number;
  readonly #items: NearEntry[] = [];

  constructor(limit: number) {
    this.#limit = limit;
  }

  worst(): number {
    return this.#items.length < this.#limit ? Number.POSITIVE_INFINITY : this.#items[this.#limit - 1]!.distance;
  }

  offer(entry: ReverseIndexEntry, distance: number): void {
    const items = this.#items;
    if (items.length === this.#limit) {
      const last = items[items.length - 1]!;
      if (distance > last.distance || (distance === last.distance && entry.rank > last.entry.rank)) return;
      items.pop();
    }
    let at = items.length;
    while (at > 0) {
      const before = items[at - 1]!;
      if (before.distance < distance || (before.distance === distance && before.entry.rank < entry.rank)) break;
      at--;
    }
    items.splice(at, 0, { entry, distance });
  }

  toArray(): NearEntry[] {
    return [...this.#items];
  }
}

// Shared buffers, grown to the largest index seen: the search is synchronous, so no two calls overlap.
function ensureScratch(size: number): void {
  if (boundScratch.length >= size) return;
  seenScratch = new Uint8Array(size);
  boundScratch = new Int32Array(size);
  rankScratch = new Int32Array(size);
  sortedBounds = new Int32Array(size);
  sortedRanks = new Int32Array(size);
}

function expectedUrl(entry: ReverseIndexEntry, accession: string): string {
  // join, not replace: a `$` in an accession must stay literal, and Java's replace fills every placeholder.
  return entry.templateParts.join(accession);
}

interface CandidateChoice {
  candidate: KeyCandidate;
  urlId: string;
  lui: string;
  matches: boolean;
}

/** The first candidate (in the group's order) whose LUI pattern accepts the id, else the first one. */
function chooseCandidate(
  index: ReverseIndex,
  group: KeyGroup,
  urlIdFor: (candidate: KeyCandidate) => string,
): CandidateChoice {
  let first: CandidateChoice | undefined;
  for (const candidate of group.candidates) {
    const urlId = urlIdFor(candidate);
    const { lui, matches } = interpretLui(index, candidate.entry, urlId);
    const choice = { candidate, urlId, lui, matches };
    if (matches) return choice;
    first ??= choice;
  }
  // A group is only created with a candidate in it.
  return first!;
}

/**
 * The LUI that `urlId` (the text found in a URL, or the accession sent) stands for. Resolution writes only
 * the part of an embedded LUI after its prefix into URLs, so for embedded namespaces the prefix is put back
 * (in the pattern's case); the text as found is kept when only that matches.
 */
function interpretLui(index: ReverseIndex, entry: ReverseIndexEntry, urlId: string): { lui: string; matches: boolean } {
  const luiPrefix = entry.luiPrefix;
  if (!entry.embedded || luiPrefix === '') return { lui: urlId, matches: matchesLuiPattern(entry.luiPattern, urlId) };
  const hasPrefix = urlId.slice(0, luiPrefix.length).toLowerCase() === luiPrefix.toLowerCase();
  const canonical = hasPrefix ? luiPrefix + urlId.slice(luiPrefix.length) : luiPrefix + urlId;
  if (matchesLuiPattern(entry.luiPattern, canonical)) return { lui: canonical, matches: true };
  if (urlId !== canonical && matchesLuiPattern(entry.luiPattern, urlId)) return { lui: urlId, matches: true };
  return { lui: canonical, matches: false };
}

function matchFromChoice(
  index: ReverseIndex,
  choice: CandidateChoice,
  normalised: string,
  forceUrls: boolean,
  options: ReverseLookupOptions,
): ReverseMatch {
  const { candidate, urlId, lui, matches } = choice;
  const expected = candidate.templateParts.join(urlId);
  const score = similarityScore(editDistance(normalised, expected), expected.length, normalised.length);
  return buildMatch(candidate.entry, lui, matches, forceUrls, score, options.publicResolverUrl);
}

function buildMatch(
  entry: ReverseIndexEntry,
  lui: string,
  matches: boolean,
  forceUrls: boolean,
  score: number,
  publicResolverUrl: string,
): ReverseMatch {
  const curie = matches || forceUrls ? (entry.embedded ? lui : `${entry.prefix}:${lui}`) : null;
  return {
    prefix: entry.prefix,
    possible_resolver_url: curie === null ? null : `${publicResolverUrl}/${curie}`,
    possible_resolver_curie: curie,
    lui_pattern_match: matches,
    similarity_score: score,
  };
}

function stripSuffix(remainder: string, suffix: string): string {
  return suffix !== '' && remainder.length > suffix.length && remainder.endsWith(suffix)
    ? remainder.slice(0, remainder.length - suffix.length)
    : remainder;
}

// Java's StringUtils.isBlank decides what counts as "not given".
function isBlank(text: string): boolean {
  return text.trim() === '';
}

function nonBlank(text: string | null | undefined): string | null {
  return typeof text === 'string' && !isBlank(text) ? text : null;
}

/**
 * A match as JSON text, byte for byte what JSON.stringify gives for it, written field by field: on the
 * byPrefix hot path the generic serialiser of this five-field object costs about as much as parsing the
 * request.
 */
export function reverseMatchJson(match: ReverseMatch): string {
  const url = match.possible_resolver_url === null ? 'null' : JSON.stringify(match.possible_resolver_url);
  const curie = match.possible_resolver_curie === null ? 'null' : JSON.stringify(match.possible_resolver_curie);
  return (
    `{"prefix":${JSON.stringify(match.prefix)},"possible_resolver_url":${url},"possible_resolver_curie":${curie},` +
    `"lui_pattern_match":${match.lui_pattern_match},"similarity_score":${JSON.stringify(match.similarity_score)}}`
  );
}
