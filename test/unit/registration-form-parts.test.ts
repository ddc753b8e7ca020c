// The pure parts of the request forms and the ROR lookup: the urlencoded body reader, the form-to-payload
// mapping, where each validation message goes, the masked e-mail, and the reading of ROR records.
import { parseFormText } from '../../src/http/form-body.js';
import { messagesByField, payloadFromForm, REQUEST_FORMS } from '../../src/registry/model/registration-fields.js';
import { readRorRecord } from '../../src/registry/registration/ror/ror-api.client.js';
import { maskEmail } from '../../src/registry/registration/submission/submission.service.js';

describe('parseFormText', () => {
  it('decodes names and values, + as a space, keeping the first of a repeated name', () => {
    expect({ ...parseFormText('a=1+2&b=%C3%A9t%C3%A9&a=3&flag&=empty') }).toEqual({ a: '1 2', b: 'été', flag: '', '': 'empty' });
  });

  it('refuses a NUL, a lone surrogate and bytes that are not UTF-8, naming the field', () => {
    expect(() => parseFormText('name=a%00')).toThrow('Form field "name" must not contain the NUL character (U+0000)');
    expect(() => parseFormText('name=%ED%A0%80')).toThrow('Form field "name" is not percent-encoded UTF-8');
    expect(() => parseFormText('na%FFme=x')).toThrow('Form field name is not percent-encoded UTF-8');
    expect(() => parseFormText(Array.from({ length: 201 }, (_, i) => `f${i}=x`).join('&'))).toThrow('at most 200 fields');
  });

  it('cannot be made to write to the object prototype', () => {
    const fields = parseFormText('__proto__=x&constructor=y');
    expect(fields.__proto__).toBe('x');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('the prefix form as a registration payload', () => {
  const form = REQUEST_FORMS.prefix;

  it('maps the requester, the references (one per line), the ticked boxes and blanks', () => {
    const payload = payloadFromForm(form, {
      name: 'N',
      references: ' https://a.example \r\n\r\nhttps://b.example\n',
      requesterName: 'Ann',
      requesterEmail: 'ann@example.org',
      protectedUrls: 'on',
    });
    expect(payload).toMatchObject({
      name: 'N',
      description: '',
      references: ['https://a.example', 'https://b.example'],
      requester: { name: 'Ann', email: 'ann@example.org' },
      protectedUrls: true,
      renderProtectedLanding: false,
      namespaceEmbeddedInLui: false,
    });
    expect(payload).not.toHaveProperty('requesterName');
    expect(payload).not.toHaveProperty('namespacePrefix');
  });

  it('puts each chain’s message next to its field', () => {
    expect(
      messagesByField(form, [
        { field: 'namespaceDescription', message: 'd' },
        { field: 'prefix', message: 'p' },
        { field: 'requesterEmail', message: 'e' },
        { field: 'institutionRorId', message: 'r' },
      ]),
    ).toEqual({ description: 'd', requestedPrefix: 'p', requesterEmail: 'e', institutionRorId: 'r' });
    expect(messagesByField(REQUEST_FORMS.resource, [{ field: 'prefix', message: 'p' }])).toEqual({ namespacePrefix: 'p' });
  });
});

describe('maskEmail', () => {
  it('keeps the first letters and the top-level domain only', () => {
    expect(maskEmail('rita.requester@example.org')).toBe('r•••@e•••.org');
    expect(maskEmail('a@localhost')).toBe('a•••@l•••');
    expect(maskEmail('nonsense')).toBe('•••');
  });
});

describe('readRorRecord', () => {
  it('reads a ROR v1 record too', () => {
    expect(
      readRorRecord(
        {
          id: 'https://ror.org/02catss52',
          name: 'European Bioinformatics Institute',
          links: ['https://www.ebi.ac.uk'],
          country: { country_code: 'GB', country_name: 'United Kingdom' },
          external_ids: { Wikidata: { all: ['Q1341845'] }, ISNI: { all: ['0000 0004 0427 7672'] } },
        },
        '02catss52',
      ),
    ).toEqual({
      rorId: 'https://ror.org/02catss52',
      name: 'European Bioinformatics Institute',
      homeUrl: 'https://www.ebi.ac.uk',
      countryCode: 'GB',
      countryName: 'United Kingdom',
      wikidataIds: ['Q1341845'],
      isniIds: ['0000 0004 0427 7672'],
    });
  });

  it('is null for an answer that is no organization', () => {
    expect(readRorRecord({ errors: ['not found'] }, '02catss52')).toBeNull();
    expect(readRorRecord([1, 2], '02catss52')).toBeNull();
  });
});
