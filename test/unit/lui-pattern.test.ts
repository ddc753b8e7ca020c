import { luiPatternError, matchesLuiPattern, MAX_TESTED_LUI_LENGTH } from '../../src/core/lui-pattern.js';

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

  it('refuses LUIs longer than the cap without running the pattern', () => {
    const catastrophic = '^(a+)+$';
    expect(matchesLuiPattern(catastrophic, 'a'.repeat(MAX_TESTED_LUI_LENGTH))).toBe(true);
    const started = Date.now();
    expect(matchesLuiPattern(catastrophic, 'a'.repeat(MAX_TESTED_LUI_LENGTH + 1) + '!')).toBe(false);
    expect(Date.now() - started).toBeLessThan(100);
  });
});
