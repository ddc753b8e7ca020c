import {
  InvalidPayloadError,
  normaliseRegistrationPayload,
  readEnvelopePayload,
} from '../../src/registry/model/registration-payload.js';
import { collapsedLength } from '../../src/registry/registration/validation/validators.js';

describe('registration payload normalisation', () => {
  it('keeps every known text as sent and makes absent fields null', () => {
    const payload = normaliseRegistrationPayload({ name: '  My DB ', requestedPrefix: 'mydb', providerCode: null });
    expect(payload.name).toBe('  My DB ');
    expect(payload.requestedPrefix).toBe('mydb');
    expect(payload.providerCode).toBeNull();
    expect(payload.description).toBeNull();
    expect(payload.namespacePrefix).toBeNull();
    expect(payload.requester).toBeNull();
    expect(payload.references).toEqual([]);
    expect(payload.additionalInformation).toBeNull();
    expect(payload.protectedUrls).toBe(false);
  });

  it('ignores fields it does not know', () => {
    const payload = normaliseRegistrationPayload({ name: 'x', favouriteColour: { r: 1 }, apiVersion: 1 });
    expect(payload).not.toHaveProperty('favouriteColour');
    expect(payload.name).toBe('x');
  });

  it('reads references under the interface name or the reference service name, preferring the former', () => {
    expect(normaliseRegistrationPayload({ references: ['a', 'b'] }).references).toEqual(['a', 'b']);
    expect(normaliseRegistrationPayload({ supportingReferences: ['c'] }).references).toEqual(['c']);
    expect(normaliseRegistrationPayload({ references: ['a'], supportingReferences: ['c'] }).references).toEqual(['a']);
    expect(normaliseRegistrationPayload({ references: 'single' }).references).toEqual(['single']);
    expect(normaliseRegistrationPayload({ references: ['a', null, 3] }).references).toEqual(['a', '3']);
  });

  it('accepts additionalInformation as a string or an array of strings joined by line breaks', () => {
    expect(normaliseRegistrationPayload({ additionalInformation: 'one' }).additionalInformation).toBe('one');
    expect(normaliseRegistrationPayload({ additionalInformation: ['one', 'two'] }).additionalInformation).toBe('one\ntwo');
    expect(normaliseRegistrationPayload({ additionalInformation: [] }).additionalInformation).toBe('');
  });

  it('reads the requester object, tolerating a missing name or email', () => {
    expect(normaliseRegistrationPayload({ requester: { name: 'Ann', email: 'ann@example.org' } }).requester).toEqual({
      name: 'Ann',
      email: 'ann@example.org',
    });
    expect(normaliseRegistrationPayload({ requester: { email: 'ann@example.org' } }).requester).toEqual({ name: null, email: 'ann@example.org' });
    expect(normaliseRegistrationPayload({ requester: null }).requester).toBeNull();
  });

  it('turns numbers and booleans into text, as the reference coerces them into its string fields', () => {
    const payload = normaliseRegistrationPayload({ sampleId: 9606, name: true });
    expect(payload.sampleId).toBe('9606');
    expect(payload.name).toBe('true');
  });

  it('reads the flags from booleans or their text form', () => {
    expect(normaliseRegistrationPayload({ protectedUrls: true }).protectedUrls).toBe(true);
    expect(normaliseRegistrationPayload({ protectedUrls: 'true', namespaceEmbeddedInLui: 'false' })).toMatchObject({
      protectedUrls: true,
      namespaceEmbeddedInLui: false,
    });
  });

  it('refuses a known field of a type no client sends, naming the field', () => {
    expect(() => normaliseRegistrationPayload({ providerName: { x: 1 } })).toThrow(new InvalidPayloadError("'providerName' must be a string"));
    expect(() => normaliseRegistrationPayload({ requester: 'ann' })).toThrow(InvalidPayloadError);
    expect(() => normaliseRegistrationPayload({ requester: { email: ['a'] } })).toThrow("'requester.email' must be a string");
    expect(() => normaliseRegistrationPayload({ references: { a: 1 } })).toThrow("'references' must be an array of strings");
    expect(() => normaliseRegistrationPayload({ protectedUrls: 'yes' })).toThrow("'protectedUrls' must be true or false");
  });

  it('takes providerCode as the provider description only when asked and no description is given', () => {
    const text = 'A provider description sent under providerCode, as the sample body does.';
    expect(normaliseRegistrationPayload({ providerCode: text }, { providerCodeAsDescription: true }).providerDescription).toBe(text);
    expect(normaliseRegistrationPayload({ providerCode: text }).providerDescription).toBeNull();
    expect(
      normaliseRegistrationPayload({ providerCode: 'ebi', providerDescription: 'given' }, { providerCodeAsDescription: true }).providerDescription,
    ).toBe('given');
  });

  it('finds the payload in the envelope whatever apiVersion says', () => {
    expect(readEnvelopePayload({ apiVersion: 1, payload: { name: 'x' } })).toEqual({ name: 'x' });
    expect(readEnvelopePayload({ payload: { name: 'x' } })).toEqual({ name: 'x' });
    expect(readEnvelopePayload({ apiVersion: '1.0' })).toBeNull();
    expect(readEnvelopePayload({ apiVersion: '1.0', payload: null })).toBeNull();
    expect(readEnvelopePayload(undefined)).toBeNull();
    expect(() => readEnvelopePayload({ payload: 'text' })).toThrow('Payload must be a JSON object');
  });
});

describe('description length', () => {
  it('counts the text trimmed and with whitespace runs collapsed', () => {
    expect(collapsedLength('  a   b \n\t c  ')).toBe(5);
    expect(collapsedLength('')).toBe(0);
    expect(collapsedLength('   ')).toBe(0);
    expect(collapsedLength('abc')).toBe(3);
  });

  it('stops counting once past the bound it is asked about', () => {
    expect(collapsedLength('x'.repeat(10_000), 50)).toBe(51);
  });
});
