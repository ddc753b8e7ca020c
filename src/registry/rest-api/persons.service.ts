import type { Db } from '../../db/knex.js';
import { notFound } from '../../core/domain-error.js';
import { findContactPerson, findPerson } from '../../db/registry-reads.js';
import { COLLECTIONS } from '../model/collections.js';
import { itemNotFound } from '../model/items.service.js';
import { parseId, quote } from '../model/query-values.js';
import type { PersonRow } from '../model/rows.js';

export type ContactPersonOwner = 'namespaces' | 'resources';

/**
 * A namespace's or resource's contact person (a to-one association): 404 both for an unknown owner and for
 * one without a contact person, saying which. Imported data has no persons; acceptance sets the requester.
 */
export async function getContactPerson(db: Db, owner: ContactPersonOwner, rawId: string): Promise<PersonRow> {
  const collection = COLLECTIONS[owner];
  const id = parseId(rawId);
  if (id === null) throw itemNotFound(collection, 'id', rawId);
  const person = await findContactPerson(db, owner, id);
  if (person === undefined) throw itemNotFound(collection, 'id', rawId);
  if (person === null) throw notFound(`${collection.noun} with id ${quote(rawId)} has no contact person`);
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
