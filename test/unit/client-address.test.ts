import type { IncomingMessage } from 'node:http';
import { loadConfig } from '../../src/config.js';
import { clientAddressFromSetting } from '../../src/http/client-address.js';

const requestFrom = (peer: string, forwardedFor?: string | string[]): IncomingMessage =>
  ({ socket: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage;

describe('the client address (TRUST_PROXY)', () => {
  it('is the peer, whatever X-Forwarded-For says, when no proxy is trusted', () => {
    for (const setting of ['false', '0']) {
      expect(clientAddressFromSetting(setting)(requestFrom('192.0.2.1', '203.0.113.9'))).toBe('192.0.2.1');
    }
  });

  it('is the left-most entry with true (a proxy that replaces the header)', () => {
    const address = clientAddressFromSetting('true');
    expect(address(requestFrom('10.0.0.1', '203.0.113.9, 10.0.0.2'))).toBe('203.0.113.9');
    expect(address(requestFrom('10.0.0.1'))).toBe('10.0.0.1');
  });

  it('is the entry that many hops from the right with a number, so that what a client writes itself is passed over', () => {
    const one = clientAddressFromSetting('1');
    expect(one(requestFrom('10.0.0.1', '198.51.100.7, 203.0.113.9'))).toBe('203.0.113.9');
    expect(one(requestFrom('10.0.0.1', ['198.51.100.7', '203.0.113.9']))).toBe('203.0.113.9');
    const two = clientAddressFromSetting('2');
    expect(two(requestFrom('10.0.0.1', '198.51.100.7, 203.0.113.9, 10.0.0.2'))).toBe('203.0.113.9');
    expect(two(requestFrom('10.0.0.1', '203.0.113.9'))).toBe('203.0.113.9');
    expect(two(requestFrom('10.0.0.1'))).toBe('10.0.0.1');
  });

  it('is the right-most entry that is not one of the listed proxies, and only when the peer is one', () => {
    const address = clientAddressFromSetting('10.0.0.0/8, 192.168.1.7, fd00::/8');
    expect(address(requestFrom('10.1.2.3', '198.51.100.7, 203.0.113.9, 192.168.1.7'))).toBe('203.0.113.9');
    expect(address(requestFrom('::ffff:10.1.2.3', '203.0.113.9'))).toBe('203.0.113.9');
    expect(address(requestFrom('fd00::5', '2001:db8::1'))).toBe('2001:db8::1');
    // A peer that is not a proxy of ours is the client, whatever it forwards.
    expect(address(requestFrom('198.51.100.1', '203.0.113.9'))).toBe('198.51.100.1');
    // Every entry a proxy: the left-most.
    expect(address(requestFrom('10.1.2.3', '10.9.9.9, 192.168.1.7'))).toBe('10.9.9.9');
  });

  it('refuses a setting that is none of these at start, naming it', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY="yes" must be false, true, a number of proxies or a comma-separated list/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY="10.0.0.0\/33": '10.0.0.0\/33' is neither an IP address nor a CIDR block/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1, 999.1.1.1' })).toThrow(/'999.1.1.1' is neither/);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8,::1' }).TRUST_PROXY).toBe('10.0.0.0/8,::1');
  });
});
