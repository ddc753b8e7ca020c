/**
 * Reverse lookup: from a provider URL back to a Compact Identifier (resolver-behaviour.md §3), answered from
 * a ReverseIndex. Pure functions; reading a lookup request and writing its answer are the resolver's
 * (src/resolver/reverse.routes.ts).
 */
import { editDistance } from './edit-distance.js';
import { matchesLuiPattern } from './lui-pattern.js';
import { NearestSearch } from './nearest-entries.js';
import {
  findLongestKey,
  normalizeReverseUrl,
  type KeyCandidate,
  type KeyGroup,
  type ReverseIndex,
  type ReverseIndexEntry,
} from './reverse-index.js';

export { editDistance } from './edit-distance.js';
export { findNearestEntries, SIMILARITY_WORK_LIMIT, type NearEntry } from './nearest-entries.js';

/** The record of interface.md §2.4; the field order is part of the contract. */
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

export const DEFAULT_SIMILARITY_RESULTS = 5;

/**
 * The reference's guess (§3.3), on the URL as sent: the text after the last `=`, `/` or `#`, ignoring one
 * trailing `/`. May be '' (`...?id=`), which callers treat as no accession.
 */
export function guessAccession(rawUrl: string): string | null {
  const url = rawUrl.endsWith('/') ? rawUrl.slice(0, -1) : rawUrl;
  const at = Math.max(url.lastIndexOf('='), url.lastIndexOf('/'), url.lastIndexOf('#'));
  return at === -1 ? null : url.slice(at + 1);
}

/** The one match for a URL whose pattern is known (§3.4), or null when no provider's URL fits it. */
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
  const lookup = new SimilarityLookup(index, query, options);
  lookup.advance();
  return lookup.matches();
}

/**
 * About a millisecond of similarity search, in edit-distance steps (see NearestSearch): every provider URL
 * of the registry, as it is or slightly altered, needs one such slice at most.
 */
export const SIMILARITY_STEPS_PER_SLICE = 200_000;

/**
 * One bySimilarity lookup, which can be done in steps (see NearestSearch): the resolver answers an
 * ordinary lookup in one step and a long one a slice at a time between other requests.
 */
export class SimilarityLookup {
  readonly #index: ReverseIndex;
  readonly #options: ReverseLookupOptions;
  readonly #forceUrls: boolean;
  readonly #normalised: string;
  readonly #accession: string | null;
  readonly #search: NearestSearch | null;

  constructor(index: ReverseIndex, query: ReverseLookupQuery, options: ReverseLookupOptions) {
    const limit = options.maxResults ?? DEFAULT_SIMILARITY_RESULTS;
    const accession = nonBlank(query.accession) ?? nonBlank(guessAccession(query.url));
    this.#index = index;
    this.#options = options;
    this.#forceUrls = query.forceUrls === true;
    this.#normalised = normalizeReverseUrl(query.url);
    this.#accession = accession;
    this.#search = accession === null || limit <= 0 ? null : new NearestSearch(index, this.#normalised, accession, limit);
  }

  /** Searches on for about `budget` edit-distance steps more; true once the answer is known. */
  advance(budget?: number): boolean {
    return this.#search === null || this.#search.advance(budget);
  }

  /** The matches, nearest first; call once advance has answered true. */
  matches(): ReverseMatch[] {
    const accession = this.#accession;
    if (this.#search === null || accession === null) return [];
    const normalised = this.#normalised;
    return this.#search.result().map(({ entry, distance }) => {
      const expectedLength = entry.templateLength + (entry.templateParts.length - 1) * accession.length;
      const score = similarityScore(distance, expectedLength, normalised.length);
      const { lui, matches } = interpretLui(this.#index, entry, accession);
      return buildMatch(entry, lui, matches, this.#forceUrls, score, this.#options.publicResolverUrl);
    });
  }

  /** Gives a lookup up half-way (its client went away), handing its buffers back. */
  release(): void {
    this.#search?.release();
  }
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

/** Java's StringUtils.isBlank, which decides what counts as "not given". */
export function isBlank(text: string): boolean {
  return text.trim() === '';
}

function nonBlank(text: string | null | undefined): string | null {
  return typeof text === 'string' && !isBlank(text) ? text : null;
}
