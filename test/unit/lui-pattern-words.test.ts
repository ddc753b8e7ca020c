import { describeLuiPattern } from '../../src/core/lui-pattern-words.js';

describe('a LUI pattern in plain words', () => {
  it.each([
    ['^\\d+$', 'numbers'],
    ['^[0-9]+$', 'numbers'],
    ['\\d+', 'numbers'],
    ['^\\d{7}$', '7-digit numbers'],
    ['^GO:\\d{7}$', '“GO:” followed by 7 digits'],
    ['^CHEBI:\\d+$', '“CHEBI:” followed by digits'],
    ['^C\\d+$', '“C” followed by digits'],
    ['^LRG_\\d+$', '“LRG_” followed by digits'],
    ['^EBI\\-[0-9]+$', '“EBI-” followed by digits'],
    ['^[A-Za-z0-9]+$', 'made of letters and digits'],
    ['^[A-Z0-9]+$', 'made of capital letters and digits'],
    ['^\\w+$', 'made of letters, digits and underscores'],
    ['^[A-Za-z_0-9]+$', 'made of letters, digits and underscores'],
    ['^[A-Za-z0-9-]+$', 'made of letters, digits and hyphens'],
    ['^[A-Z0-9]{6,7}$', 'made of 6 to 7 capital letters and digits'],
    ['^[0-9][A-Za-z0-9]{3}$', 'a digit followed by 3 letters and digits'],
    ['^[A-Z_]{3}[0-9]{4,}$', '3 capital letters and underscores followed by 4 or more digits'],
    ['^.+$', 'any text that is not empty'],
    ['^(\\d+)$', 'numbers'],
  ])('reads %s as "%s"', (pattern, words) => {
    expect(describeLuiPattern(pattern)).toBe(words);
  });

  it.each([
    // Alternations, groups, optional parts, negated classes, single letters, classes of other characters.
    '^(R-[A-Z]{3}-\\d+(-\\d+)?(\\.\\d+)?)|(REACT_\\d+(\\.\\d+)?)$',
    '^((HGNC|hgnc):)?\\d{1,5}$',
    '^[AEP]-\\w{4}-\\d+$',
    '^[^:]+$',
    '^\\S+$',
    '^[A-Za-z0-9+_.%-:]+$',
    '^[0-9a-fA-F]{8}\\-[0-9a-fA-F]{4}\\-[0-9a-fA-F]{4}\\-[0-9a-fA-F]{4}\\-[0-9a-fA-F]{12}$',
    '^B?\\d+$',
    '^[1-9][0-9]*$',
    '^\\d+?$',
    '^(unclosed$',
    '',
    '^GO:$',
  ])('puts %s in no words rather than wrong ones', (pattern) => {
    expect(describeLuiPattern(pattern)).toBeNull();
  });
});
