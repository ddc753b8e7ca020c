import type { Db } from '../../db/knex.js';
import type { Curator } from '../model/curator-auth.js';
import type { RequestValidation } from '../model/request-validation.js';
import { completeNamespaceRows, type NamespaceItemRow } from '../model/namespace-synonyms.js';
import * as lifecycle from './lifecycle.service.js';
import type { EditableCollection, EditedRow, RecordMaintenance, RecordPatch } from '../model/record-maintenance.js';
import { editRecord, setSuccessor } from './record-edits.service.js';

/**
 * What the maintenance routes are given: the curators' changes to the registry's records on its database,
 * checked with the registration rules (`validator`; without it, edits that need a check answer 503).
 * `client` is the curator's address, which the checks are shared fairly by.
 */
export class MaintenanceService implements RecordMaintenance {
  constructor(
    private readonly db: Db,
    private readonly validator?: RequestValidation,
  ) {}

  /** `expectedModified`: the record's `modified` as the curator saw it (the desk's forms); a later change refuses the edit. */
  async edit(curator: Curator, collection: EditableCollection, rawId: string, patch: RecordPatch, client?: string, expectedModified?: Date): Promise<EditedRow> {
    const row = await editRecord(this.db, { validator: this.validator, client }, curator, collection, rawId, patch, { expectedModified });
    // The answer is the HAL item, whose synonyms are no column.
    if (collection === 'namespaces') await completeNamespaceRows(this.db, [row as NamespaceItemRow]);
    return row;
  }

  setSuccessor(curator: Curator, rawId: string, hrefs: readonly string[], client?: string, expectedModified?: Date): Promise<EditedRow> {
    return setSuccessor(this.db, { validator: this.validator, client }, curator, rawId, hrefs, { expectedModified });
  }

  deactivateNamespace(curator: Curator, rawId: string): Promise<string> {
    return lifecycle.deactivateNamespace(this.db, curator, rawId);
  }

  reactivateNamespace(curator: Curator, rawId: string): Promise<string> {
    return lifecycle.reactivateNamespace(this.db, curator, rawId);
  }

  deactivateResource(curator: Curator, rawId: string): Promise<string> {
    return lifecycle.deactivateResource(this.db, curator, rawId);
  }

  reactivateResource(curator: Curator, rawId: string, providerUrlPattern: string | null, client?: string): Promise<string> {
    return lifecycle.reactivateResource(this.db, { validator: this.validator, client }, curator, rawId, providerUrlPattern);
  }

  deleteInstitution(curator: Curator, rawId: string): Promise<string> {
    return lifecycle.deleteInstitution(this.db, curator, rawId);
  }
}
