import { isEbiHostedUrl, recommendResource } from '../../src/core/recommendation.js';

const resource = (official: boolean, deprecated = false) => ({ id: 1, official, deprecated });

describe('recommendResource', () => {
  it('gives the only resource 100, even when deprecated', () => {
    expect(recommendResource(resource(false, true), 'https://example.org/1', true, 1)).toEqual({
      recommendationIndex: 100,
      recommendationExplanation: 'Only resource available for this CID',
    });
  });

  it('scores several resources with the weighted formula at the default reliability', () => {
    const index = (official: boolean, url: string) => recommendResource(resource(official), url, false, 2).recommendationIndex;
    expect(index(true, 'https://www.ncbi.nlm.nih.gov/taxonomy/1')).toBe(75);
    expect(index(true, 'https://www.ebi.ac.uk/chebi/1')).toBe(80);
    expect(index(false, 'https://www.ebi.ac.uk/ols4/1')).toBe(25);
    expect(index(false, 'http://purl.bioontology.org/1')).toBe(20);
    expect(recommendResource(resource(true), 'https://x.org/', false, 2).recommendationExplanation).toBe(
      'Function based recommendation',
    );
  });

  it('gives 0 to a deprecated resource or a resource of a deprecated namespace', () => {
    expect(recommendResource(resource(true, true), 'https://www.ebi.ac.uk/1', false, 2)).toEqual({
      recommendationIndex: 0,
      recommendationExplanation: 'Function based recommendation',
    });
    expect(recommendResource(resource(true), 'https://www.ebi.ac.uk/1', true, 2).recommendationIndex).toBe(0);
  });

  it('uses the reliability lookup with integer division', () => {
    const reliabilityOf = (id: number) => (id === 1 ? 99 : undefined);
    // (55*100 + 40*99 + 5*0) / 100 = 94.6
    expect(recommendResource(resource(true), 'https://x.org/', false, 3, reliabilityOf).recommendationIndex).toBe(94);
    expect(recommendResource({ id: 2, official: true, deprecated: false }, 'https://x.org/', false, 3, reliabilityOf).recommendationIndex).toBe(75);
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
