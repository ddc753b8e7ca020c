import {
  ebiHostingOfUrlPattern,
  isEbiHostedUrl,
  rankProvider,
  recommendationIndexOf,
  recommendLiveProvider,
} from '../../src/core/recommendation.js';
import { reliabilityOf, type SampleMeasurement } from '../../src/core/reliability.js';

const provider = (official: boolean, urlPattern = 'https://x.org/{$id}', deprecated = false) => ({ official, deprecated, urlPattern });
const measured = (up: number, counted: number, extra: Partial<SampleMeasurement> = {}): SampleMeasurement => ({
  up,
  counted,
  uncounted: 0,
  notFoundStreak: false,
  ...extra,
});

describe('rankProvider', () => {
  it('keeps the reference numbers without any check history (reliability 50)', () => {
    const index = (official: boolean, pattern: string) => rankProvider(provider(official, pattern), false, undefined).recommendation.recommendationIndex;
    expect(index(true, 'https://www.ncbi.nlm.nih.gov/taxonomy/{$id}')).toBe(75);
    expect(index(true, 'https://www.ebi.ac.uk/chebi/{$id}')).toBe(80);
    expect(index(false, 'https://www.ebi.ac.uk/ols4/{$id}')).toBe(25);
    expect(index(false, 'http://purl.bioontology.org/{$id}')).toBe(20);
  });

  it('explains an index without history', () => {
    expect(rankProvider(provider(true, 'https://www.ebi.ac.uk/chebi/{$id}'), false, undefined).recommendation).toEqual({
      recommendationIndex: 80,
      recommendationExplanation: 'official 100, no availability measured yet (counted as 50), hosted at EBI',
    });
  });

  it('uses the measured availability with integer division, and says what went into it', () => {
    // reliability round(100 * 5 / 8) = 63; (55*100 + 40*63 + 5*100) / 100 = 85.2
    expect(rankProvider(provider(true, 'https://www.ebi.ac.uk/x/{$id}'), false, measured(5, 8)).recommendation).toEqual({
      recommendationIndex: 85,
      recommendationExplanation: 'official 100, measured availability 63 % over 7 days (8 checks), hosted at EBI',
    });
    // (40*99) / 100 = 39.6
    expect(recommendationIndexOf(false, 99, false)).toBe(39);
    expect(rankProvider(provider(false), false, measured(1, 1)).recommendation.recommendationExplanation).toBe(
      'official 0, measured availability 100 % over 7 days (1 check), not hosted at EBI',
    );
  });

  it('names the checks that did not count, and counts only the others', () => {
    expect(rankProvider(provider(false), false, measured(0, 0, { uncounted: 3 })).recommendation).toEqual({
      recommendationIndex: 20,
      recommendationExplanation:
        'official 0, no availability measured yet (counted as 50; 3 checks blocked as a bot or skipped, not counted), not hosted at EBI',
    });
    expect(rankProvider(provider(false), false, measured(2, 4, { uncounted: 1 })).recommendation.recommendationExplanation).toBe(
      'official 0, measured availability 50 % over 7 days (4 checks; 1 check blocked as a bot or skipped, not counted), not hosted at EBI',
    );
  });

  it('says when the sample URL has been not found for days', () => {
    expect(rankProvider(provider(false), false, measured(0, 4, { notFoundStreak: true })).recommendation).toEqual({
      recommendationIndex: 0,
      recommendationExplanation:
        'official 0, measured availability 0 % over 7 days (4 checks), not hosted at EBI; sample URL not found for 3 days in a row, so not a redirect target while another provider works',
    });
  });

  it('gives 0 to a deprecated resource or a resource of a deprecated namespace, whatever its measurements', () => {
    expect(rankProvider(provider(true, 'https://www.ebi.ac.uk/{$id}', true), false, measured(4, 4)).recommendation).toEqual({
      recommendationIndex: 0,
      recommendationExplanation: 'deprecated resource',
    });
    expect(rankProvider(provider(true), true, measured(4, 4)).recommendation).toEqual({
      recommendationIndex: 0,
      recommendationExplanation: 'resource of a deprecated namespace',
    });
  });

  it('keeps both answers when the identifier decides the EBI hosting', () => {
    const ranking = rankProvider(provider(false, 'https://example.org/{$id}'), false, undefined);
    expect(ranking.recommendation.recommendationIndex).toBe(20);
    expect(ranking.recommendationIfEbiHosted?.recommendationIndex).toBe(25);
    expect(rankProvider(provider(false, 'https://www.ebi.ac.uk/{$id}'), false, undefined).recommendationIfEbiHosted).toBeNull();
  });

  it('shares one frozen recommendation between providers without history', () => {
    const a = rankProvider(provider(true, 'https://a.org/x/'), false, undefined).recommendation;
    expect(a).toBe(recommendLiveProvider(true, false, undefined));
    expect(Object.isFrozen(a)).toBe(true);
  });
});

describe('reliabilityOf', () => {
  it('is the rounded share of working checks among the counted ones, 50 without any', () => {
    expect(reliabilityOf(undefined)).toBe(50);
    expect(reliabilityOf(measured(0, 0, { uncounted: 5 }))).toBe(50);
    expect(reliabilityOf(measured(5, 8))).toBe(63);
    expect(reliabilityOf(measured(1, 3))).toBe(33);
    expect(reliabilityOf(measured(0, 3))).toBe(0);
  });
});

describe('isEbiHostedUrl', () => {
  it('follows the Spring simple pattern http*://*ebi.ac.uk/*', () => {
    expect(isEbiHostedUrl('https://www.ebi.ac.uk/chebi/')).toBe(true);
    expect(isEbiHostedUrl('http://ebi.ac.uk/')).toBe(true);
    expect(isEbiHostedUrl('https://example.org/?next=ebi.ac.uk/')).toBe(true);
    expect(isEbiHostedUrl('https://www.ebi.ac.uk')).toBe(false);
    expect(isEbiHostedUrl('ftp://ftp.ebi.ac.uk/pub')).toBe(false);
    expect(isEbiHostedUrl('HTTPS://www.ebi.ac.uk/')).toBe(false);
  });
});

describe('ebiHostingOfUrlPattern', () => {
  it('decides from the part before the identifier when it can', () => {
    expect(ebiHostingOfUrlPattern('https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:{$id}')).toBe(true);
    expect(ebiHostingOfUrlPattern('ftp://ftp.ebi.ac.uk/{$id}')).toBe(false);
    expect(ebiHostingOfUrlPattern('urn:x:{$id}')).toBe(false);
    expect(ebiHostingOfUrlPattern('https://www.ebi.ac.uk/static')).toBe(true);
    expect(ebiHostingOfUrlPattern('https://example.org/static')).toBe(false);
  });

  it('leaves it to the identifier when the identifier can change the answer', () => {
    expect(ebiHostingOfUrlPattern('https://example.org/{$id}')).toBeUndefined();
    expect(ebiHostingOfUrlPattern('{$id}')).toBeUndefined();
    expect(ebiHostingOfUrlPattern('ht{$id}')).toBeUndefined();
    expect(ebiHostingOfUrlPattern('https{$id}')).toBeUndefined();
  });

  it('agrees with isEbiHostedUrl on the resolved URL whenever it decides', () => {
    const patterns = ['https://www.ebi.ac.uk/{$id}', 'ftp://x/{$id}', 'https://example.org/{$id}', 'ht{$id}', 'http://x.ebi.ac.uk/a/{$id}/b'];
    const ids = ['1', 'ebi.ac.uk/', 'tp://ebi.ac.uk/', 'x'];
    for (const pattern of patterns) {
      const decided = ebiHostingOfUrlPattern(pattern);
      if (decided === undefined) continue;
      for (const id of ids) expect(isEbiHostedUrl(pattern.replaceAll('{$id}', id))).toBe(decided);
    }
  });
});
