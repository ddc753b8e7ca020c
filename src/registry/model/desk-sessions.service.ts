/**
 * The curator desk's sessions, stored in PostgreSQL (curator_sessions) rather than signed into the cookie:
 * signing out ends a session everywhere at once, and an operator can end all of them with one DELETE. The
 * browser holds a random 32-byte value; the table holds its SHA-256 only, so a copy of the table signs
 * nobody in. Each session has its own CSRF token, which every desk form carries. A session ends at its
 * expiry (CURATOR_SESSION_HOURS after sign-in) whatever is done with it.
 *
 * An OpenID Connect sign-in is kept between the redirect to the provider and its return (curator_sign_ins,
 * ten minutes at most, used once), found by the hash of its state.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/knex.js';
import type { CuratorSessionRow } from '../../db/tables.js';
import type { Curator } from './curator-auth.js';

/** The cookie's value and the CSRF tokens: 32 random bytes, base64url. */
const VALUE_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** How long a sign-in at the OpenID Connect provider may take. */
export const SIGN_IN_MINUTES = 10;

const hashOf = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');
const randomValue = (): string => randomBytes(32).toString('base64url');

/** A signed-in curator: who, the CSRF token of their forms, and until when. */
export interface DeskSession {
  curator: Curator;
  csrfToken: string;
  expiresAt: Date;
}

/** What a cookie's value comes to: a session, one that has expired, or nothing. */
export type SessionLookup = { state: 'signed-in'; session: DeskSession } | { state: 'expired' } | { state: 'none' };

export interface PendingSignIn {
  state: string;
  codeVerifier: string;
  nonce: string;
}

function sessionOf(row: CuratorSessionRow): DeskSession {
  return {
    curator: { name: row.curatorName, kind: row.curatorKind, issuer: row.curatorIssuer, subject: row.curatorSubject },
    csrfToken: row.csrfToken,
    expiresAt: row.expiresAt,
  };
}

export class DeskSessions {
  constructor(
    private readonly db: Db,
    /** CURATOR_SESSION_HOURS. */
    private readonly sessionHours: number,
  ) {}

  /** Starts a session for `curator`: the cookie's value and the session. Expired sessions are cleared on the way. */
  async start(curator: Curator): Promise<{ cookieValue: string; session: DeskSession }> {
    await this.db('curator_sessions').where('expiresAt', '<', this.db.fn.now()).delete();
    const cookieValue = randomValue();
    const [row] = await this.db('curator_sessions')
      .insert({
        idHash: hashOf(cookieValue),
        curatorName: curator.name.slice(0, 255),
        curatorKind: curator.kind,
        curatorIssuer: curator.issuer,
        curatorSubject: curator.subject,
        csrfToken: randomValue(),
        expiresAt: this.db.raw(`now() + make_interval(hours => ?)`, [this.sessionHours]),
      })
      .returning('*');
    return { cookieValue, session: sessionOf(row!) };
  }

  /** The session a cookie's value names. */
  async find(cookieValue: string | undefined): Promise<SessionLookup> {
    if (cookieValue === undefined || !VALUE_SHAPE.test(cookieValue)) return { state: 'none' };
    const row = await this.db('curator_sessions').first('*').where({ idHash: hashOf(cookieValue) });
    if (!row) return { state: 'none' };
    if (row.expiresAt.getTime() <= Date.now()) {
      await this.db('curator_sessions').where({ idHash: row.idHash }).delete();
      return { state: 'expired' };
    }
    return { state: 'signed-in', session: sessionOf(row) };
  }

  /** Ends the session a cookie's value names (nothing when there is none). */
  async end(cookieValue: string | undefined): Promise<void> {
    if (cookieValue === undefined || !VALUE_SHAPE.test(cookieValue)) return;
    await this.db('curator_sessions').where({ idHash: hashOf(cookieValue) }).delete();
  }

  /** Keeps an OpenID Connect sign-in under way; its state is what the browser's cookie and the provider bring back. */
  async savePendingSignIn(pending: PendingSignIn): Promise<void> {
    await this.db('curator_sign_ins').where('expiresAt', '<', this.db.fn.now()).delete();
    await this.db('curator_sign_ins').insert({
      stateHash: hashOf(pending.state),
      codeVerifier: pending.codeVerifier,
      nonce: pending.nonce,
      expiresAt: this.db.raw(`now() + make_interval(mins => ?)`, [SIGN_IN_MINUTES]),
    });
  }

  /** The sign-in under way with this state, removed as it is read (a state is good for one return only). */
  async takePendingSignIn(state: string): Promise<PendingSignIn | undefined> {
    const [row] = await this.db('curator_sign_ins').where({ stateHash: hashOf(state) }).delete().returning('*');
    if (!row || row.expiresAt.getTime() <= Date.now()) return undefined;
    return { state, codeVerifier: row.codeVerifier, nonce: row.nonce };
  }
}
