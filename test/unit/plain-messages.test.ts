// The request forms' words for the validators' messages (issue 23 item 6): the JSON API keeps the
// reference's messages, the pages say the same in plain words under their own labels.
import { formFields, REQUEST_FORMS } from '../../src/registry/model/registration-fields.js';
import { plainMessage } from '../../src/registry/registration/pages/plain-messages.js';
import { CHAINS } from '../../src/registry/registration/validation/chains.js';
import { countryCode, email, minLength, notBlank, urlSyntaxMessage } from '../../src/registry/registration/validation/validators.js';
import type { ValidationContext } from '../../src/registry/registration/validation/validation-context.js';

/** What a pure rule reads of its context. */
const context = (label: string) => ({ label, deps: { minDescriptionLength: 50 } }) as unknown as ValidationContext;

// Shouting (a word of four or more capitals) other than the acronyms a page may write.
const SHOUTING = /\b(?!HTTP|HTTPS|ISO|TLS|ROR|URL)[A-Z]{4,}\b/;

describe('the pages’ words for the validation messages', () => {
  it('names each field by the label the form gives it, never by the API’s name for it', () => {
    for (const kind of ['prefix', 'resource'] as const) {
      const labels = new Set(formFields(REQUEST_FORMS[kind]).map((field) => field.label.replace(/ \(optional\)$/, '')));
      for (const chain of CHAINS) {
        if (!(kind === 'prefix' ? chain.prefixValue : chain.resourceValue)) continue;
        const worded = plainMessage(kind, notBlank('', context(chain.label)) as string);
        const label = worded.replace(/ is required$/, '');
        expect([kind, chain.label, labels.has(label)]).toEqual([kind, chain.label, true]);
      }
    }
    expect(plainMessage('prefix', 'ID Regex Pattern is required')).toBe('Identifier pattern is required');
    expect(plainMessage('prefix', 'Prefix is required')).toBe('Requested prefix is required');
    expect(plainMessage('resource', 'Prefix is required')).toBe('Prefix of the namespace is required');
    expect(plainMessage('prefix', 'Requester Email is too long')).toBe('Your e-mail address is too long');
    expect(plainMessage('prefix', 'Institution ROR ID is too long')).toBe('ROR id is too long');
  });

  it('says in plain words what the rules without I/O refuse', () => {
    const cases: [string, string][] = [
      [minLength('Too short', context('Description')) as string, 'Description needs more than 50 characters'],
      [countryCode('XX', context('Provider Location')) as string, 'Provider country: enter the two-letter ISO 3166 code of a country, such as GB'],
      [email('ann@', context('Requester Email')) as string, 'Your e-mail address must be written like name@example.org'],
      [urlSyntaxMessage('www.example.org', 'Institution Home URL')!, 'Institution home page must be a web address starting with http:// or https://'],
      [urlSyntaxMessage('ftp://example.org/', 'Provider Home URL')!, 'Provider home page must be a web address starting with http:// or https://'],
      ['Provider URL Pattern must include the placeholder {$id}', 'Provider URL pattern must contain {$id} where the identifier goes'],
      ['Institution Home URL: the URL check is still running; please retry in a few seconds', 'Institution home page: the address is still being checked; try again in a few seconds'],
      ['ID Regex Pattern: the pattern check is still running; please retry in a few seconds', 'Identifier pattern: the pattern is still being checked; try again in a few seconds'],
    ];
    for (const [api, page] of cases) expect(plainMessage('prefix', api)).toBe(page);
  });

  it('rewords the shouting messages of the prefixes, provider codes, samples and URL checks, keeping the values', () => {
    const cases: [kind: 'prefix' | 'resource', api: string, page: string][] = [
      ['resource', "Prefix 'nosuchnamespace' IS NOT REGISTERED", 'No namespace has the prefix “nosuchnamespace”'],
      ['resource', "Prefix '3dmet' is DEPRECATED, new resources are not allowed", 'The namespace “3dmet” is deprecated: it takes no new providers'],
      ['prefix', "Prefix 'taxonomy' already exists", 'The prefix “taxonomy” is taken: a namespace has it already'],
      ['prefix', 'Requested prefix can only contain lowercase characters, numbers, underscores and dots', 'A prefix can only hold lowercase letters, digits, underscores (_) and dots (.)'],
      ['prefix', "Provider codes must be DIFFERENT from existing prefixes! Namespace 'go' exists.", 'A provider code must differ from every prefix, and “go” is a namespace’s prefix'],
      ['resource', 'Provider codes must be UNIQUE within a namespace! Please pick another code.', 'Another provider of this namespace has this code; choose another one'],
      ['resource', "Namespace with prefix 'nope' does not exist", 'No namespace has the prefix “nope”'],
      ['resource', 'Prefix nope does not exist', 'No namespace has the prefix “nope”'],
      ['prefix', 'Sample ID does not match ID pattern', 'The sample identifier does not match the identifier pattern'],
      ['resource', 'Sample ID does not match ID pattern', 'The sample identifier does not match the pattern of the namespace’s identifiers'],
      [
        'prefix',
        'URL Pattern is similar to existing registry entry. The URL https://identifiers.org/taxonomy:9606 should be what you want. Please contact us if you need any assistance.',
        'This URL pattern is much like one the registry has: https://identifiers.org/taxonomy:9606 may already be what you want. Write to the curators if you need help',
      ],
      [
        'prefix',
        "URL Pattern is similar to existing registry entry. You should be able to use the existing 'taxonomy' namespace. Please contact us if you need any assistance.",
        'This URL pattern is much like one of the namespace “taxonomy”, which may already be what you want. Write to the curators if you need help',
      ],
      ['prefix', "Institution ROR ID 'x' is not a ROR ID (such as https://ror.org/02catss52)", '“x” is not a ROR id; a ROR id is written like https://ror.org/02catss52 or 02catss52'],
      ['prefix', 'Status 404 NOT_FOUND is not acceptable for URL https://example.org/x', 'The page at https://example.org/x could not be opened: the site answered with status 404'],
      ['prefix', 'Status 520 is not acceptable for URL https://example.org/', 'The page at https://example.org/ could not be opened: the site answered with status 520'],
      ['prefix', 'The server did not answer within 7.5 seconds', 'The site did not answer within 7.5 seconds'],
      ['prefix', 'Failed to connect to server', 'The site could not be reached'],
      ['prefix', 'Failed to connect to server due to SSL error', 'The site could not be reached: its secure connection (TLS) failed'],
      // A message no rule knows keeps its words, under the page's label.
      ['prefix', 'ID Regex Pattern can backtrack catastrophically: rejecting some identifiers takes exponential time', 'Identifier pattern can backtrack catastrophically: rejecting some identifiers takes exponential time'],
      ['prefix', 'ID Regex Pattern: Unclosed group near index 3', 'Identifier pattern: Unclosed group near index 3'],
      ['prefix', 'Invalid regex: Unterminated group', 'Identifier pattern is not a regular expression the registry can use: Unterminated group'],
    ];
    for (const [kind, api, page] of cases) {
      expect([api, plainMessage(kind, api)]).toEqual([api, page]);
      expect(plainMessage(kind, api)).not.toMatch(SHOUTING);
    }
  });
});
