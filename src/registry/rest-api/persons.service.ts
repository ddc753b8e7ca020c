import type { Db } from '../../db/knex.js';
import { notFound, type DomainError } from '../../core/domain-error.js';
import { namespaceNotFound } from './namespaces.service.js';
import { parseId, quote } from './query-values.js';
import { resourceNotFound } from './resources.service.js';
import type { PersonRow } from './rows.js';

const PERSON_COLUMNS = ['p.id', 'p.email', 'p.fullName', 'p.created', 'p.modified'];

const OWNERS = {
  namespaces: { label: 'Namespace', notFound: namespaceNotFound },
  resources: { label: 'Resource', notFound: resourceNotFound },
} as const satisfies Record<string, { label: string; notFound: (id: string) => DomainError }>;

export type ContactPersonOwner = keyof typeof OWNERS;

/**
 * A namespace's or resource's contact person (a to-one association): 404 both for an unknown owner and for
 * one without a contact person, saying which. Imported data has no persons; acceptance sets the requester.
 */
export async function getContactPerson(db: Db, owner: ContactPersonOwner, rawId: string): Promise<PersonRow> {
  const { label, notFound: ownerNotFound } = OWNERS[owner];
  const id = parseId(rawId);
  if (id === null) throw ownerNotFound(rawId);
  // One query answers both questions: the owner's row, with the person's columns null when it has none.
  const row = (await db({ o: owner })
    .leftJoin({ p: 'persons' }, 'p.id', 'o.contactPersonId')
    .where('o.id', id)
    .first(PERSON_COLUMNS)) as { [K in keyof PersonRow]: PersonRow[K] | null } | undefined;
  if (!row) throw ownerNotFound(rawId);
  if (row.id === null) throw notFound(`${label} with id ${quote(rawId)} has no contact person`);
  return row as PersonRow;
}

export async function getPerson(db: Db, rawId: string): Promise<PersonRow> {
  const id = parseId(rawId);
  const row = id === null ? undefined : ((await db({ p: 'persons' }).where('p.id', id).first(PERSON_COLUMNS)) as PersonRow | undefined);
  if (!row) throw notFound(`Person with id ${quote(rawId)} not found`);
  return row;
}
