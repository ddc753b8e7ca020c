import {
  inspectLuiPattern,
  luiPatternEngineFor,
  luiPatternError,
  luiPatternSource,
  luiPatternVerdict,
  matchesLuiPattern,
  MAX_TESTED_LUI_LENGTH,
  recordLuiPatternVerdict,
} from '../../src/core/lui-pattern.js';
import { backtrackingTestsDuring } from '../support/backtracking-spy.js';

const UNIPROT =
  '^([A-N,R-Z][0-9]([A-Z][A-Z, 0-9][A-Z, 0-9][0-9]){1,2})|([O,P,Q][0-9][A-Z, 0-9][A-Z, 0-9][A-Z, 0-9][0-9])(\\.\\d+)?(-\\d+)?(#PRO_\\d+)?$';

describe('matchesLuiPattern', () => {
  it('matches the whole LUI like Java String.matches', () => {
    expect(matchesLuiPattern('^\\d+$', '9606')).toBe(true);
    expect(matchesLuiPattern('^\\d+$', '9606/')).toBe(false);
    expect(matchesLuiPattern('\\d+', '12a')).toBe(false);
  });

  it('applies both branches of an alternation to the whole LUI', () => {
    expect(matchesLuiPattern(UNIPROT, 'P0DP23')).toBe(true);
    expect(matchesLuiPattern(UNIPROT, 'A0A023GPI8')).toBe(true);
    // The raw pattern would accept these: its first branch is not anchored at the end, its second not at the start.
    expect(matchesLuiPattern(UNIPROT, 'A1BCD2junk')).toBe(false);
    expect(matchesLuiPattern(UNIPROT, 'junkP12345')).toBe(false);
  });

  it('accepts an empty LUI when the pattern does', () => {
    expect(matchesLuiPattern('[A-Za-z_0-9]*', '')).toBe(true);
    expect(matchesLuiPattern('^\\d+$', '')).toBe(false);
  });

  it('compiles patterns with identity escapes that the u flag rejects', () => {
    expect(matchesLuiPattern('^(ark\\:)/*[0-9A-Za-z]+$', 'ark:/13030')).toBe(true);
    expect(luiPatternError('^(ark\\:)/*[0-9A-Za-z]+$')).toBeNull();
  });

  it('treats a pattern that does not compile as matching nothing and reports why', () => {
    expect(() => matchesLuiPattern('^(unclosed$', 'unclosed')).not.toThrow();
    expect(matchesLuiPattern('^(unclosed$', 'unclosed')).toBe(false);
    expect(luiPatternError('^(unclosed$')).toEqual(expect.any(String));
  });

  // How fast these answers are is bench:hostile's to measure (its ncbiprotein case); what is asserted here is
  // that the backtracking engine never sees the hostile LUI.
  it('refuses LUIs longer than the cap without running the pattern', () => {
    const catastrophic = '^(a+)+$';
    expect(matchesLuiPattern(catastrophic, 'a'.repeat(MAX_TESTED_LUI_LENGTH))).toBe(true);
    let answer: boolean | undefined;
    const tested = backtrackingTestsDuring(luiPatternSource(catastrophic), () => {
      answer = matchesLuiPattern(catastrophic, 'a'.repeat(MAX_TESTED_LUI_LENGTH + 1) + '!');
    });
    expect({ answer, tested }).toEqual({ answer: false, tested: 0 });
  });

  it('answers a hostile LUI at once while the pattern has no verdict (ncbiprotein took 12.9 s)', () => {
    const ncbiprotein = '^\\w+_?\\d+(.\\d+)?$';
    expect(luiPatternVerdict(ncbiprotein)).toBe('unchecked');
    let answer: boolean | undefined;
    const tested = backtrackingTestsDuring(luiPatternSource(ncbiprotein), () => {
      answer = matchesLuiPattern(ncbiprotein, '0'.repeat(MAX_TESTED_LUI_LENGTH - 1) + '!');
    });
    expect({ answer, tested }).toEqual({ answer: false, tested: 0 });
    expect(matchesLuiPattern(ncbiprotein, 'NP_012345.1')).toBe(true);
  });

  it('answers a hostile LUI at once for a pattern the checker flagged', () => {
    const soybase = '^\\w+(\\-)?\\w+(\\-)?\\w+$';
    recordLuiPatternVerdict(soybase, 'vulnerable');
    let answer: boolean | undefined;
    const tested = backtrackingTestsDuring(luiPatternSource(soybase), () => {
      answer = matchesLuiPattern(soybase, 'a'.repeat(MAX_TESTED_LUI_LENGTH - 1) + '!');
    });
    expect({ answer, tested }).toEqual({ answer: false, tested: 0 });
    expect(matchesLuiPattern(soybase, 'BARC-013845-01256')).toBe(true);
  });

  it('matches a pattern found safe, and remembers the verdict', () => {
    recordLuiPatternVerdict('^GO:\\d{7}$', 'safe');
    expect(luiPatternVerdict('^GO:\\d{7}$')).toBe('safe');
    expect(matchesLuiPattern('^GO:\\d{7}$', 'GO:0006915')).toBe(true);
    expect(matchesLuiPattern('^GO:\\d{7}$', 'GO:000691')).toBe(false);
  });

  it('matches nothing with a vulnerable pattern that has no linear-time equivalent, and says why', () => {
    const pattern = '^(?=a)(a|a)*b$';
    expect(inspectLuiPattern(pattern)).toEqual({ error: null, linearError: 'it uses a lookahead or lookbehind, which a linear-time engine cannot match' });
    expect(matchesLuiPattern(pattern, 'aab')).toBe(true);
    recordLuiPatternVerdict(pattern, 'vulnerable');
    expect(matchesLuiPattern(pattern, 'aab')).toBe(false);
  });

  it('keeps backtracking for a pattern the checker could not judge and that has no linear-time equivalent', () => {
    const pattern = '^(?!x)\\d+$';
    recordLuiPatternVerdict(pattern, 'unknown');
    expect(matchesLuiPattern(pattern, '12')).toBe(true);
  });

  it('names the engine each verdict calls for', () => {
    expect(luiPatternEngineFor('safe', null)).toBe('backtracking');
    expect(luiPatternEngineFor('safe', 'lookahead')).toBe('backtracking');
    for (const verdict of ['unchecked', 'vulnerable', 'unknown'] as const) expect(luiPatternEngineFor(verdict, null)).toBe('linear');
    expect(luiPatternEngineFor('vulnerable', 'lookahead')).toBe('none');
    expect(luiPatternEngineFor('unknown', 'lookahead')).toBe('backtracking');
    expect(luiPatternEngineFor('unchecked', 'lookahead')).toBe('backtracking');
  });
});
