import type { Db } from '../../db/knex.js';
import { notFound, type DomainError } from '../../core/domain-error.js';
import { findContactPerson, findPerson } from '../../db/registry-reads.js';
import { namespaceNotFound } from './namespaces.service.js';
import { parseId, quote } from './query-values.js';
import { resourceNotFound } from './resources.service.js';
import type { PersonRow } from './rows.js';

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
  const person = await findContactPerson(db, owner, id);
  if (person === undefined) throw ownerNotFound(rawId);
  if (person === null) throw notFound(`${label} with id ${quote(rawId)} has no contact person`);
  return person;
}

export async function getPerson(db: Db, rawId: string): Promise<PersonRow> {
  const id = parseId(rawId);
  const row = id === null ? undefined : await findPerson(db, id);
  if (!row) throw notFound(`Person with id ${quote(rawId)} not found`);
  return row;
}

/** What the person routes are given: the reads above on the registry's database. */
export interface PersonsService {
  getContactPerson(owner: ContactPersonOwner, rawId: string): Promise<PersonRow>;
  getPerson(rawId: string): Promise<PersonRow>;
}

export function createPersonsService(db: Db): PersonsService {
  return {
    getContactPerson: (owner, rawId) => getContactPerson(db, owner, rawId),
    getPerson: (rawId) => getPerson(db, rawId),
  };
}
