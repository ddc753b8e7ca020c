import { invalid } from '../../core/domain-error.js';

/**
 * A position in the change feed: the (transaction id, log version) of the last change read. Opaque to
 * clients (base64url), so that its parts can change without breaking what they hold; `v1.` names this form.
 */
export interface ChangeCursor {
  txid: string;
  version: string;
}

/** Before every change: where a reader without a cursor starts. */
export const FEED_START: ChangeCursor = { txid: '0', version: '0' };

const FORM = /^v1\.(\d{1,20})\.(\d{1,20})$/;
// A cursor this service writes is well under this; anything longer is refused before decoding.
const MAX_LENGTH = 80;

export function encodeCursor(cursor: ChangeCursor): string {
  return Buffer.from(`v1.${cursor.txid}.${cursor.version}`, 'utf8').toString('base64url');
}

/** The cursor `text` encodes; an absent or empty one is the start of the feed. Throws 'invalid' otherwise. */
export function decodeCursor(text: string | undefined): ChangeCursor {
  if (text === undefined || text === '') return FEED_START;
  const match = text.length <= MAX_LENGTH && /^[A-Za-z0-9_-]+$/.test(text) ? FORM.exec(Buffer.from(text, 'base64url').toString('utf8')) : null;
  if (!match) {
    throw invalid(`'since' must be a cursor this feed gave out (the 'next' of a page, or a change's 'cursor'), or empty for the start of the feed`);
  }
  // Numbers beyond the column ranges would fail in the query; no real position is that large.
  if (BigInt(match[1]!) >= 2n ** 63n || BigInt(match[2]!) >= 2n ** 63n) {
    throw invalid(`'since' is not a position of this feed`);
  }
  return { txid: BigInt(match[1]!).toString(), version: BigInt(match[2]!).toString() };
}

/** The largest log version a cursor may name (the bigint column's). */
const LAST_VERSION = (2n ** 63n - 1n).toString();

/**
 * The cursor just before every change of transaction `xmin` or later: what a reader of a registry snapshot
 * whose pg_snapshot_xmin was `xmin` resumes the feed from. Every transaction below xmin had ended and is in
 * that snapshot; the feed then gives every later one, some perhaps already in the snapshot too (a reader
 * applies a change by reading the namespace again, so seeing one twice is harmless).
 */
export function cursorBeforeTransaction(xmin: string): string {
  const before = BigInt(xmin) - 1n;
  return encodeCursor({ txid: (before < 0n ? 0n : before).toString(), version: before < 0n ? '0' : LAST_VERSION });
}
