import { distance as referenceDistance } from 'fastest-levenshtein';
import { buildReverseIndex, normalizeReverseUrl, type ReverseIndex } from '../../src/core/reverse-index.js';
import { NearestSearch } from '../../src/core/nearest-entries.js';
import {
  editDistance,
  findNearestEntries,
  SIMILARITY_WORK_LIMIT,
  guessAccession,
  reverseBySimilarity,
  similarityScore,
  type ReverseLookupQuery,
} from '../../src/core/reverse-lookup.js';
import { buildCrowdedReverseSnapshot, buildReverseSnapshot, seededRandom } from '../factories/reverse-snapshot.factory.js';

const RESOLVER = 'https://resolver.example.org';
const index = buildReverseIndex(buildReverseSnapshot());
const bySimilarity = (query: ReverseLookupQuery) => reverseBySimilarity(index, query, { publicResolverUrl: RESOLVER });

/** Every entry scored and sorted: the definition the pruned search must reproduce. */
function naiveNearest(target: ReverseIndex, normalisedUrl: string, accession: string, limit: number) {
  return target.entries
    .map((entry) => ({ entry, distance: referenceDistance(normalisedUrl, entry.templateParts.join(accession)) }))
    .sort((a, b) => a.distance - b.distance || a.entry.rank - b.entry.rank)
    .slice(0, limit)
    .map(({ entry, distance }) => `${entry.prefix}/${entry.resourceId}@${distance}`);
}

function prunedNearest(target: ReverseIndex, normalisedUrl: string, accession: string, limit: number) {
  return findNearestEntries(target, normalisedUrl, accession, limit).map(
    ({ entry, distance }) => `${entry.prefix}/${entry.resourceId}@${distance}`,
  );
}

/** Provider URLs filled from the index's own patterns, then damaged in a few random ways. */
function sampleQueries(target: ReverseIndex, count: number, seed: number): { url: string; accession: string }[] {
  const random = seededRandom(seed);
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:/.?=#-é';
  const randomText = (length: number) =>
    Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  const queries: { url: string; accession: string }[] = [];
  for (let n = 0; n < count; n++) {
    const entry = target.entries[Math.floor(random() * target.entries.length)]!;
    const accession = random() < 0.7 ? String(Math.floor(random() * 1e7)) : randomText(1 + Math.floor(random() * 12));
    let url = (random() < 0.5 ? 'https://www.' : 'http://') + entry.templateParts.join(accession);
    const damage = Math.floor(random() * 4);
    for (let d = 0; d < damage; d++) {
      const at = 8 + Math.floor(random() * Math.max(1, url.length - 8));
      const kind = random();
      if (kind < 0.33) url = url.slice(0, at) + randomText(1 + Math.floor(random() * 3)) + url.slice(at);
      else if (kind < 0.66) url = url.slice(0, at) + url.slice(at + 1 + Math.floor(random() * 3));
      else url = url.slice(0, at) + randomText(1) + url.slice(at + 1);
    }
    if (random() < 0.1) url = url.replace(/^https?:\/\/(www\.)?[^/?#]+/, 'https://elsewhere.example.net');
    queries.push({ url, accession: random() < 0.5 ? accession : (guessAccession(url) ?? accession) });
  }
  return queries;
}

describe('reverseBySimilarity', () => {
  it('returns at most five matches, the exact one first with a score of 100', () => {
    const matches = bySimilarity({ url: 'https://www.ncbi.nlm.nih.gov/gene/100010' });
    expect(matches).toHaveLength(5);
    expect(matches[0]).toEqual({
      prefix: 'ncbigene',
      possible_resolver_url: `${RESOLVER}/ncbigene:100010`,
      possible_resolver_curie: 'ncbigene:100010',
      lui_pattern_match: true,
      similarity_score: 100,
    });
  });

  it('lists matches by distance, as scoring every entry would', () => {
    const url = 'https://www.ncbi.nlm.nih.gov/gene/100010';
    const expected = naiveNearest(index, normalizeReverseUrl(url), '100010', 5).map((s) => s.split('/')[0]);
    expect(bySimilarity({ url }).map((m) => m.prefix)).toEqual(expected);
  });

  it('scores a near miss the way Java float arithmetic does', () => {
    // `ftp.ebi.ac.uk/pub/databases/lrgex/LRG_1` is 39 characters; the filled pattern adds `.xml`: 4 of 43.
    const [first] = bySimilarity({ url: 'http://ftp.ebi.ac.uk/pub/databases/lrgex/LRG_1' });
    expect(first).toEqual({
      prefix: 'lrg',
      possible_resolver_url: `${RESOLVER}/lrg:LRG_1`,
      possible_resolver_curie: 'lrg:LRG_1',
      lui_pattern_match: true,
      similarity_score: 90.69768,
    });
  });

  it('breaks ties by prefix, and leaves the CURIE out where the pattern refuses the id', () => {
    const [compound, drug] = bySimilarity({ url: 'https://www.kegg.jp/entry/C00001' });
    expect(compound).toMatchObject({ prefix: 'kegg.compound', lui_pattern_match: true, similarity_score: 100 });
    expect(drug).toEqual({
      prefix: 'kegg.drug',
      possible_resolver_url: null,
      possible_resolver_curie: null,
      lui_pattern_match: false,
      similarity_score: 100,
    });
  });

  it('gives the CURIE of a non-matching entry with forceUrls', () => {
    const matches = bySimilarity({ url: 'https://www.kegg.jp/entry/C00001', forceUrls: true });
    expect(matches[1]?.possible_resolver_curie).toBe('kegg.drug:C00001');
  });

  it('gives an embedded namespace its LUI as the CURIE', () => {
    const [first] = bySimilarity({ url: 'https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927' });
    expect(first?.prefix).toBe('chebi');
    expect(first?.possible_resolver_curie).toBe('CHEBI:36927');
    expect(first?.lui_pattern_match).toBe(true);
  });

  it('uses an explicit accession instead of the guess', () => {
    const [first] = bySimilarity({ url: 'https://www.kegg.jp/entry/C00001/details', accession: 'C00001' });
    expect(first?.possible_resolver_curie).toBe('kegg.compound:C00001');
  });

  it('never proposes a deprecated namespace or resource', () => {
    const prefixes = [
      ...bySimilarity({ url: 'https://old.example.org/gene/1' }),
      ...bySimilarity({ url: 'https://www.ncbi.nlm.nih.gov/pubmed/16333295' }),
    ];
    expect(prefixes.map((m) => m.prefix)).not.toContain('oldgene');
    expect(prefixes.filter((m) => m.similarity_score === 100)).toEqual([]);
  });

  it('answers nothing when no accession can be found', () => {
    expect(bySimilarity({ url: 'httpexample' })).toEqual([]);
    expect(bySimilarity({ url: 'https://www.ncbi.nlm.nih.gov/gene?term=' })).toEqual([]);
  });

  it('honours a smaller or larger result limit', () => {
    const url = 'https://www.ncbi.nlm.nih.gov/gene/100010';
    expect(reverseBySimilarity(index, { url }, { publicResolverUrl: RESOLVER, maxResults: 2 })).toHaveLength(2);
    expect(reverseBySimilarity(index, { url }, { publicResolverUrl: RESOLVER, maxResults: 50 })).toHaveLength(
      index.entries.length,
    );
  });
});

describe('findNearestEntries', () => {
  it('equals scoring every entry on the small registry', () => {
    for (const { url, accession } of sampleQueries(index, 300, 11)) {
      const normalised = normalizeReverseUrl(url);
      expect(prunedNearest(index, normalised, accession, 5)).toEqual(naiveNearest(index, normalised, accession, 5));
    }
  });

  it('equals scoring every entry for URLs far longer than any pattern', () => {
    const crowded = buildReverseIndex(buildCrowdedReverseSnapshot(100));
    for (const [n, target] of [index, crowded].entries()) {
      for (const length of [300, 1000, 4000]) {
        const url = `https://www.ebi.ac.uk/${'ab/'.repeat(length / 3)}${n}12345`;
        const normalised = normalizeReverseUrl(url);
        expect(prunedNearest(target, normalised, '12345', 5)).toEqual(naiveNearest(target, normalised, '12345', 5));
      }
    }
  });

  it('equals scoring every entry on a crowded registry, for several limits', () => {
    const crowded = buildReverseIndex(buildCrowdedReverseSnapshot(300));
    expect(crowded.entries.length).toBeGreaterThan(400);
    for (const { url, accession } of sampleQueries(crowded, 1200, 23)) {
      const normalised = normalizeReverseUrl(url);
      const naive = naiveNearest(crowded, normalised, accession, 12);
      for (const limit of [1, 5, 12]) {
        expect(prunedNearest(crowded, normalised, accession, limit)).toEqual(naive.slice(0, limit));
      }
    }
  });
});

describe('NearestSearch, done in steps (issue 10)', () => {
  const crowded = buildReverseIndex(buildCrowdedReverseSnapshot(300));

  it('answers the same searched a small budget at a time, several searches interleaved, as searched in one go', () => {
    const queries = sampleQueries(crowded, 60, 31).map(({ url, accession }) => ({ normalised: normalizeReverseUrl(url), accession }));
    // A long one too: far from every template, so nearly every entry is scored.
    queries.push({ normalised: normalizeReverseUrl(`https://www.ebi.ac.uk/${'ab/'.repeat(300)}12345`), accession: '12345' });
    const expected = queries.map((q) => prunedNearest(crowded, q.normalised, q.accession, 5));
    const searches = queries.map((q) => new NearestSearch(crowded, q.normalised, q.accession, 5));
    const done = searches.map(() => false);
    let steps = 0;
    while (done.includes(false)) {
      searches.forEach((search, n) => {
        if (!done[n]) done[n] = search.advance(300);
      });
      steps++;
    }
    expect(steps).toBeGreaterThan(5);
    const answers = searches.map((search) => search.result().map(({ entry, distance }) => `${entry.prefix}/${entry.resourceId}@${distance}`));
    expect(answers).toEqual(expected);
  });

  it('stops at the work limit, answering the nearest entries found so far', () => {
    const random = seededRandom(5);
    const text = (length: number) => Array.from({ length }, () => 'abcdefghijklmnopqrstuvwxyz0123456789/._-'[Math.floor(random() * 40)]).join('');
    const search = new NearestSearch(crowded, normalizeReverseUrl(`https://x.org/${text(2030)}`), text(1000), 5);
    expect(search.advance()).toBe(true);
    expect(search.cutShort).toBe(true);
    expect(search.work).toBeGreaterThanOrEqual(SIMILARITY_WORK_LIMIT);
    expect(search.result()).toHaveLength(5);
  });

  it('does an ordinary lookup well within one slice of the resolver (200,000 steps)', () => {
    for (const { url, accession } of sampleQueries(crowded, 200, 41)) {
      const search = new NearestSearch(crowded, normalizeReverseUrl(url), accession, 5);
      expect(search.advance(200_000)).toBe(true);
      expect(search.cutShort).toBe(false);
    }
  });
});

describe('similarityScore', () => {
  it.each([
    [0, 28, 20, 100],
    [3, 28, 20, 89.28571],
    [26, 55, 40, 52.727272],
    [4, 43, 39, 90.69768],
    // Rounded once in double precision this would be 33.333332; Java rounds each step to float.
    [14, 21, 21, 33.333336],
    [7, 21, 10, 66.66667],
    [20, 20, 20, 0],
  ])('turns distance %i over lengths %i and %i into %f', (distance, expectedLength, queryLength, score) => {
    expect(similarityScore(distance, expectedLength, queryLength)).toBe(score);
  });
});

describe('editDistance', () => {
  function dynamicProgramming(a: string, b: string): number {
    let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const current = [i];
      for (let j = 1; j <= b.length; j++) {
        current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      }
      previous = current;
    }
    return previous[b.length]!;
  }

  it('equals the textbook Levenshtein distance across the one- and two-word ranges', () => {
    const random = seededRandom(5);
    // Few letters make long common runs; the astral character checks UTF-16 code units.
    const alphabet = ['a', 'b', 'c', '/', '.', 'é', '\u{1d11e}'];
    const text = (length: number) =>
      Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('').slice(0, length);
    for (let n = 0; n < 1500; n++) {
      const a = text(Math.floor(random() * 100));
      const b = text(Math.floor(random() * 100));
      expect(editDistance(a, b)).toBe(dynamicProgramming(a, b));
    }
  });

  it('counts a shared prefix and suffix as free', () => {
    expect(editDistance('ncbi.nlm.nih.gov/gene/100010', 'ncbi.nlm.nih.gov/gene/100010')).toBe(0);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
