import { greeting, startMessages } from '../../src/registry/model/notification-messages.js';
import type { RequestRow } from '../../src/registry/model/registration-records.js';

const SETTINGS = { publicRegistryUrl: 'https://registry.test', publicResolverUrl: 'https://resolver.test', curatorEmail: 'curators@example.org' };
const SESSION = { id: 7, token: 'Xc1pYt0aRlC0VbQ2KQm0rX4vZ8yJm3wq5Tn7hL6dE2s' };

function prefixRequest(overrides: Partial<Record<string, unknown>>): RequestRow {
  return {
    requestedPrefix: 'examplerecords',
    name: 'Example records',
    description: 'Records of an example database, described at length for the curators.',
    providerName: 'Example provider',
    providerCode: 'example',
    providerDescription: 'The provider of the example records, described at length.',
    institutionName: 'Example Institute',
    requesterName: 'Rita Requester',
    requesterEmail: 'rita@example.org',
    ...overrides,
  } as unknown as RequestRow;
}

describe("the requester's confirmation of a new request", () => {
  it('greets the requester by name and names the prefix', () => {
    const [mail] = startMessages('prefix', prefixRequest({}), SESSION, SETTINGS);
    expect(mail!.subject).toBe("Received prefix registration request for 'examplerecords'");
    expect(mail!.body).toMatch(/^Dear Rita Requester,\n\nyour prefix registration request for 'examplerecords' has been received/);
    expect(mail!.body).toContain(`${SETTINGS.publicRegistryUrl}/requests/${SESSION.token}`);
  });

  it('carries none of a spammer\'s links or HTML to the address the request gives', () => {
    const spam = prefixRequest({
      requesterName: 'You won! Claim at https://evil.example/claim <a href="https://evil.example">here</a>',
      requestedPrefix: 'claim.prize.example.com',
      requesterEmail: 'victim@example.org',
    });
    const [mail] = startMessages('prefix', spam, SESSION, SETTINGS);
    expect(mail!.recipient).toBe('victim@example.org');
    for (const text of [mail!.subject, mail!.body]) {
      expect(text).not.toMatch(/evil|claim|prize|<a|href/);
    }
    expect(mail!.subject).toBe('Received prefix registration request');
    expect(mail!.body).toMatch(/^Hello,\n\nyour prefix registration request has been received/);
  });

  it('quotes a name only when it is a plain name', () => {
    expect(greeting('  Zoë O’Brien-Smith ')).toBe('Dear Zoë O’Brien-Smith,');
    expect(greeting('J. R. R. Tolkien')).toBe('Dear J. R. R. Tolkien,');
    for (const name of ['win.example', 'Rita <b>', 'Rita @ example', 'x'.repeat(61), 'http://x', '', '   ', 'Ann\nBcc: x@example.org']) {
      expect([name, greeting(name)]).toEqual([name, 'Hello,']);
    }
  });
});
