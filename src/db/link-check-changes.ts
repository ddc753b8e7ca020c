import type { Knex } from 'knex';

/**
 * The channel a batch of link checks is announced on, at commit (NOTIFY is delivered at commit, like the
 * registry's own registry_changes). Its own channel, not registry_changes: a batch of checks changes
 * providers' reliabilities, which the resolver refreshes, and nothing the dataset build or the browse caches
 * depend on, so they are not woken by it.
 */
export const LINK_CHECKS_CHANNEL = 'link_checks';

/** Announces stored checks; call it in (or after) the transaction that stored them. */
export async function announceLinkChecks(db: Knex): Promise<void> {
  await db.raw('SELECT pg_notify(?, ?)', [LINK_CHECKS_CHANNEL, '']);
}
