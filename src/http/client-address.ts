/**
 * The client's address, as rate limits, fair sharing of heavy work, regex checks and usage counts key by
 * it: the connection's peer, or behind proxies of ours the entry of X-Forwarded-For that TRUST_PROXY says
 * to believe (lib/trusted-proxies.ts). One function for the bare handlers and for Koa (ctx.ip), so that a
 * client is the same client whichever path its request takes.
 */
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import { isTrustedProxy, parseTrustedProxies, type TrustedProxies } from '../lib/trusted-proxies.js';

export type ClientAddress = (req: IncomingMessage) => string;

const peerOf = (req: IncomingMessage): string => req.socket.remoteAddress ?? '';

/** The header's text; a repeated header reads as one list, as RFC 9110 §5.3 combines field lines. */
function forwardedHeader(req: IncomingMessage): string | undefined {
  const header = req.headers['x-forwarded-for'];
  return Array.isArray(header) ? header.join(',') : header;
}

/** The X-Forwarded-For entries, left to right; empty without the header. */
function forwardedEntries(req: IncomingMessage): string[] {
  const header = forwardedHeader(req);
  if (!header) return [];
  const entries: string[] = [];
  for (const part of header.split(',')) {
    const entry = part.trim();
    if (entry) entries.push(entry);
  }
  return entries;
}

export function clientAddressFor(trust: TrustedProxies): ClientAddress {
  switch (trust.kind) {
    case 'none':
      return peerOf;
    case 'all':
      return (req) => {
        const header = forwardedHeader(req);
        return (header && header.split(',')[0]?.trim()) || peerOf(req);
      };
    case 'hops': {
      const { hops } = trust;
      // As Koa's maxIpsCount: the entry `hops` from the right; the left-most when there are fewer.
      return (req) => {
        const entries = forwardedEntries(req);
        return entries.length === 0 ? peerOf(req) : entries[Math.max(0, entries.length - hops)]!;
      };
    }
    case 'list': {
      const { proxies } = trust;
      return (req) => {
        const peer = peerOf(req);
        if (!isTrustedProxy(proxies, peer)) return peer;
        const entries = forwardedEntries(req);
        for (let i = entries.length - 1; i >= 0; i--) if (!isTrustedProxy(proxies, entries[i]!)) return entries[i]!;
        return entries[0] ?? peer;
      };
    }
  }
}

/** The client address function of a TRUST_PROXY setting (already checked by loadConfig). */
export function clientAddressFromSetting(setting: string): ClientAddress {
  return clientAddressFor(parseTrustedProxies(setting));
}

/** Whether Koa should believe X-Forwarded-Proto and -Host (app.proxy): whenever any proxy is trusted. */
export const trustsProxies = (setting: string): boolean => parseTrustedProxies(setting).kind !== 'none';

/** Sets ctx.ip from `address`, for every middleware and route after it. */
export function setClientAddress(address: ClientAddress): Middleware {
  return function clientAddress(ctx, next) {
    ctx.request.ip = address(ctx.req);
    return next();
  };
}
