/**
 * The search behind reverse lookup by similarity (resolver-behaviour.md §3.5): the entries whose template,
 * filled with the accession, is nearest to the URL. It can run in steps with a work budget each, so that the
 * resolver answers a long lookup a slice at a time between other requests, and it stops at a total work
 * limit, so that no single request can cost more than a bounded amount of CPU.
 */
import { editDistance, lastEditDistanceWork } from './edit-distance.js';
import { BAG_SLOT_COUNT, bagSlot, findLongestKey, hostEnd, type ReverseIndex, type ReverseIndexEntry } from './reverse-index.js';

export interface NearEntry {
  entry: ReverseIndexEntry;
  distance: number;
}

/**
 * Most work one lookup may do, in edit-distance steps (see lastEditDistanceWork): about 0.1 s of one core.
 * An ordinary provider URL needs well under 1 % of it; only URLs of hundreds of characters compared with
 * an accession they do not contain come near. Past it the search stops and answers the nearest entries
 * found so far, which it has scored in increasing order of their lower bound.
 */
export const SIMILARITY_WORK_LIMIT = 5_000_000;

// How many entries are scored up front, before any bound exists, to make the bound tight from the start.
const SEED_SIZE = 64;
// Lower bounds at or beyond this share the last counting-sort bucket.
const BOUND_BUCKETS = 256;
// Filling a template and the bookkeeping around one distance, in the same units.
const SCORE_OVERHEAD = 8;

// Used only inside one synchronous step (the counting sort), so one copy serves every search.
const bucketStarts = new Int32Array(BOUND_BUCKETS + 2);

/** Per-search buffers, sized to the index; kept for reuse, as most searches run to the end in one go. */
interface Scratch {
  seen: Uint8Array;
  bounds: Int32Array;
  ranks: Int32Array;
  sortedBounds: Int32Array;
  sortedRanks: Int32Array;
  queryBag: Int32Array;
}

const spareScratch: Scratch[] = [];
const MAX_SPARE_SCRATCH = 4;

function takeScratch(size: number): Scratch {
  const spare = spareScratch.pop();
  // A smaller one belongs to an older, smaller index: dropped.
  if (spare && spare.seen.length >= size) return spare;
  return {
    seen: new Uint8Array(size),
    bounds: new Int32Array(size),
    ranks: new Int32Array(size),
    sortedBounds: new Int32Array(size),
    sortedRanks: new Int32Array(size),
    queryBag: new Int32Array(BAG_SLOT_COUNT),
  };
}

const SEEDING = 0;
const BOUNDING = 1;
const SCORING = 2;
const DONE = 3;

/**
 * The `limit` entries with the smallest Levenshtein distance between `normalisedUrl` and their template
 * filled with `accession`, ties by rank: exactly what scoring every entry and sorting would give, unless the
 * work limit cuts the search short (`cutShort`).
 *
 * It scores a few likely entries first (those whose key starts the URL, then same-host entries of about the
 * right length), which bounds the distance that still matters. Every other entry then gets two cheap lower
 * bounds, the length difference (found by a window over entries ordered by length) and the bag distance
 * (surplus of characters counted without order; one edit changes it by at most one), and only entries whose
 * bound beats the current last place are scored, in increasing order of bound.
 */
export class NearestSearch {
  readonly #index: ReverseIndex;
  readonly #url: string;
  readonly #accession: string;
  readonly #nearest: NearestList;
  #scratch: Scratch | null;
  #phase = SEEDING;
  #work = 0;
  #cutShort = false;

  readonly #seeds: ReverseIndexEntry[];
  #seedAt = 0;
  readonly #seeded: number[] = [];
  /** A template this long, filled with the accession, has the URL's length. */
  readonly #targetLength: number;
  #seedWorst = Number.POSITIVE_INFINITY;
  #position = 0;
  #end = 0;
  #multiAt = 0;
  #kept = 0;
  #minBound = Number.POSITIVE_INFINITY;
  #scoreAt = 0;

  constructor(index: ReverseIndex, normalisedUrl: string, accession: string, limit: number) {
    this.#index = index;
    this.#url = normalisedUrl;
    this.#accession = accession;
    this.#nearest = new NearestList(limit);
    this.#scratch = takeScratch(index.entries.length);
    this.#targetLength = normalisedUrl.length - accession.length;
    this.#seeds = seedsFor(index, normalisedUrl, this.#targetLength);
  }

  /** Work done so far, in edit-distance steps. */
  get work(): number {
    return this.#work;
  }

  /** True when the work limit ended the search before every entry that could be nearer was scored. */
  get cutShort(): boolean {
    return this.#cutShort;
  }

  /** Searches on for about `budget` steps more; true once the answer is known. */
  advance(budget = Number.POSITIVE_INFINITY): boolean {
    const stopAt = Math.min(this.#work + budget, SIMILARITY_WORK_LIMIT);
    if (this.#phase === SEEDING) this.#seed(stopAt);
    if (this.#phase === BOUNDING) this.#bound(stopAt);
    if (this.#phase === SCORING) this.#score(stopAt);
    if (this.#phase !== DONE && this.#work >= SIMILARITY_WORK_LIMIT) {
      this.#cutShort = true;
      this.release();
    }
    return this.#phase === DONE;
  }

  /** The nearest entries, nearest first; call once advance has answered true. */
  result(): NearEntry[] {
    if (this.#phase !== DONE) throw new Error('NearestSearch.result() called before the search ended');
    return this.#nearest.toArray();
  }

  /** Ends the search and hands its buffers back; a search given up half-way must call it too. */
  release(): void {
    this.#phase = DONE;
    const scratch = this.#scratch;
    if (!scratch) return;
    this.#scratch = null;
    for (const rank of this.#seeded) scratch.seen[rank] = 0;
    if (spareScratch.length < MAX_SPARE_SCRATCH) spareScratch.push(scratch);
  }

  #distance(entry: ReverseIndexEntry): number {
    const distance = editDistance(this.#url, expectedUrl(entry, this.#accession));
    this.#work += lastEditDistanceWork() + SCORE_OVERHEAD;
    return distance;
  }

  #seed(stopAt: number): void {
    const scratch = this.#scratch!;
    const seen = scratch.seen;
    while (this.#seedAt < this.#seeds.length) {
      if (this.#work >= stopAt) return;
      const entry = this.#seeds[this.#seedAt++]!;
      if (seen[entry.rank] === 1) continue;
      seen[entry.rank] = 1;
      this.#seeded.push(entry.rank);
      this.#nearest.offer(entry, this.#distance(entry));
    }

    // The query's characters less one accession: with the template's counts, this gives the bag distance
    // to the filled template without building it.
    const { queryBag } = scratch;
    const url = this.#url;
    const accession = this.#accession;
    queryBag.fill(0);
    for (let i = 0; i < url.length; i++) queryBag[bagSlot(url.charCodeAt(i))]! += 1;
    for (let i = 0; i < accession.length; i++) queryBag[bagSlot(accession.charCodeAt(i))]! -= 1;
    this.#work += (url.length + accession.length) >> 2;

    const seedWorst = this.#nearest.worst();
    const { templateLengths, entriesByLength } = this.#index;
    const target = this.#targetLength;
    this.#seedWorst = seedWorst;
    const unbounded = seedWorst === Number.POSITIVE_INFINITY;
    this.#position = unbounded ? 0 : firstAtLeast(templateLengths, target - seedWorst);
    this.#end = unbounded ? entriesByLength.length : firstAtLeast(templateLengths, target + seedWorst + 1);
    this.#phase = BOUNDING;
  }

  #bound(stopAt: number): void {
    const { entriesByLength, bagSlots, bagCounts, multiPlaceholderEntries } = this.#index;
    const { seen, bounds, ranks, queryBag } = this.#scratch!;
    const seedWorst = this.#seedWorst;
    const targetLength = this.#targetLength;
    const end = this.#end;
    let work = this.#work;
    let kept = this.#kept;
    let minBound = this.#minBound;
    let position = this.#position;
    for (; position < end && work < stopAt; position++) {
      const entry = entriesByLength[position]!;
      if (seen[entry.rank] === 1) continue;
      work += 1 + ((entry.bagEnd - entry.bagStart) >> 1);
      const lengthGap = targetLength - entry.templateLength;
      let surplus = 0;
      for (let k = entry.bagStart; k < entry.bagEnd; k++) {
        const excess = bagCounts[k]! - queryBag[bagSlots[k]!]!;
        if (excess > 0) surplus += excess;
      }
      // The query's own surplus is the filled template's plus the length gap.
      const bound = Math.max(surplus, surplus + lengthGap);
      if (bound <= seedWorst) {
        bounds[kept] = bound;
        ranks[kept] = entry.rank;
        kept++;
        if (bound < minBound) minBound = bound;
      }
    }
    // Rare patterns with several placeholders keep the length bound only.
    let multiAt = this.#multiAt;
    if (position >= end) {
      const urlLength = this.#url.length;
      const accessionLength = this.#accession.length;
      for (; multiAt < multiPlaceholderEntries.length && work < stopAt; multiAt++) {
        const entry = multiPlaceholderEntries[multiAt]!;
        if (seen[entry.rank] === 1) continue;
        work += 1;
        const placeholders = entry.templateParts.length - 1;
        const bound = Math.abs(urlLength - entry.templateLength - placeholders * accessionLength);
        if (bound <= seedWorst) {
          bounds[kept] = bound;
          ranks[kept] = entry.rank;
          kept++;
          if (bound < minBound) minBound = bound;
        }
      }
    }
    this.#work = work;
    this.#kept = kept;
    this.#minBound = minBound;
    this.#position = position;
    this.#multiAt = multiAt;
    if (position < end || multiAt < multiPlaceholderEntries.length) return;
    this.#sortByBound();
    this.#phase = SCORING;
  }

  /**
   * Counting sort by bound, offset by the smallest so that a very long URL, far from every template, still
   * gets ordered buckets.
   */
  #sortByBound(): void {
    const { bounds, ranks, sortedBounds, sortedRanks } = this.#scratch!;
    const kept = this.#kept;
    const minBound = this.#minBound;
    bucketStarts.fill(0);
    for (let k = 0; k < kept; k++) bucketStarts[Math.min(bounds[k]! - minBound, BOUND_BUCKETS) + 1]! += 1;
    for (let bucket = 1; bucket <= BOUND_BUCKETS + 1; bucket++) bucketStarts[bucket]! += bucketStarts[bucket - 1]!;
    for (let k = 0; k < kept; k++) {
      const bound = bounds[k]!;
      const bucket = Math.min(bound - minBound, BOUND_BUCKETS);
      const slot = bucketStarts[bucket]!;
      bucketStarts[bucket] = slot + 1;
      sortedBounds[slot] = bound;
      sortedRanks[slot] = ranks[k]!;
    }
    this.#work += kept;
  }

  #score(stopAt: number): void {
    const { sortedBounds, sortedRanks } = this.#scratch!;
    const entries = this.#index.entries;
    const nearest = this.#nearest;
    while (this.#scoreAt < this.#kept) {
      if (this.#work >= stopAt) return;
      const k = this.#scoreAt++;
      const bound = sortedBounds[k]!;
      if (bound > nearest.worst()) {
        // Below the overflow bucket bounds only grow from here; inside it they are unordered.
        if (bound - this.#minBound < BOUND_BUCKETS) break;
        continue;
      }
      const entry = entries[sortedRanks[k]!]!;
      nearest.offer(entry, this.#distance(entry));
    }
    this.release();
  }
}

/** The nearest entries, searched in one go (within the work limit). */
export function findNearestEntries(index: ReverseIndex, normalisedUrl: string, accession: string, limit: number): NearEntry[] {
  const search = new NearestSearch(index, normalisedUrl, accession, limit);
  search.advance();
  return search.result();
}

/** The entries scored first: those whose key starts the URL, then same-host ones of about the right length. */
function seedsFor(index: ReverseIndex, normalisedUrl: string, targetLength: number): ReverseIndexEntry[] {
  const seeds: ReverseIndexEntry[] = [];
  const keyed = findLongestKey(index, normalisedUrl, normalisedUrl.length);
  if (keyed) for (const candidate of keyed.candidates) seeds.push(candidate.entry);
  const end = hostEnd(normalisedUrl);
  const sameHost = index.entriesByHost.get(end === -1 ? normalisedUrl : normalisedUrl.slice(0, end));
  if (sameHost) visitNearestInLength(sameHost, targetLength, SEED_SIZE, (entry) => seeds.push(entry));
  return seeds;
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

function expectedUrl(entry: ReverseIndexEntry, accession: string): string {
  // join, not replace: a `$` in an accession must stay literal, and Java's replace fills every placeholder.
  return entry.templateParts.join(accession);
}
