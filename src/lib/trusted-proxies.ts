import { BlockList, isIP } from 'node:net';

/**
 * TRUST_PROXY as read: which entries of X-Forwarded-For describe the client.
 *  - none: the header is ignored; the connection's peer is the client.
 *  - all: every entry is believed and the left-most is the client (the proxy must replace the header).
 *  - hops: that many proxies of ours each append their peer; the client is that many entries from the right.
 *  - list: the addresses of our proxies; walking from the right, the first address not among them.
 */
export type TrustedProxies =
  | { kind: 'none' }
  | { kind: 'all' }
  | { kind: 'hops'; hops: number }
  | { kind: 'list'; proxies: BlockList };

const familyOf = (address: string): 'ipv4' | 'ipv6' | undefined => {
  const version = isIP(address);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : undefined;
};

/** Parses TRUST_PROXY; throws a RangeError naming the first entry that is neither an address nor a CIDR block. */
export function parseTrustedProxies(setting: string): TrustedProxies {
  const value = setting.trim();
  if (value === '' || value === 'false' || value === '0') return { kind: 'none' };
  if (value === 'true') return { kind: 'all' };
  if (/^[0-9]+$/.test(value)) return { kind: 'hops', hops: Number(value) };
  const proxies = new BlockList();
  for (const entry of value.split(',')) {
    const [address = '', bits] = entry.trim().split('/');
    const family = familyOf(address);
    const prefix = bits === undefined ? undefined : Number(bits);
    const maxBits = family === 'ipv4' ? 32 : 128;
    if (!family || (prefix !== undefined && !(Number.isInteger(prefix) && prefix >= 0 && prefix <= maxBits))) {
      throw new RangeError(`'${entry.trim()}' is neither an IP address nor a CIDR block`);
    }
    if (prefix === undefined) proxies.addAddress(address, family);
    else proxies.addSubnet(address, prefix, family);
  }
  return { kind: 'list', proxies };
}

/** Whether `address` (as a socket or X-Forwarded-For gives it) is one of the listed proxies. */
export function isTrustedProxy(proxies: BlockList, address: string): boolean {
  const family = familyOf(address);
  return family !== undefined && proxies.check(address, family);
}
