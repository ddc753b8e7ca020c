/**
 * The curators' changes to the registry's records as the features that make them see them: the maintenance
 * feature implements RecordMaintenance (its routes answer the API's PATCH, PUT and lifecycle requests), and
 * the curator desk is given it for its record forms.
 */
import type { InstitutionRow, NamespaceRow, ResourceRow } from '../../db/tables.js';
import type { Curator } from './curator-auth.js';

export type EditableCollection = 'namespaces' | 'resources' | 'institutions';

export type EditedRow = NamespaceRow | ResourceRow | InstitutionRow;

/** The changes a PATCH asks for: the given properties the collection lets a curator change, as sent. */
export interface RecordPatch {
  /** Values as sent: texts, flags, dates as text or number, and objects for rule fields (`luiRules`). */
  fields: Record<string, string | boolean | number | object | null>;
  /** Association property -> the href given (null: unlink). */
  associations: Record<string, string | null>;
  /** Namespaces: the whole list of synonyms when the patch gives it (null clears it). */
  synonyms?: string[];
}

export interface EditFailure {
  field: string;
  message: string;
}

/**
 * The changes, checked with the registration rules. `client` is the curator's address, which the checks are
 * shared fairly by; `expectedModified`, the record's `modified` as the curator saw it (a later change refuses
 * the edit). Refusals are DomainErrors (EditRefused names the fields).
 */
export interface RecordMaintenance {
  edit(curator: Curator, collection: EditableCollection, rawId: string, patch: RecordPatch, client?: string, expectedModified?: Date): Promise<EditedRow>;
  setSuccessor(curator: Curator, rawId: string, hrefs: readonly string[], client?: string, expectedModified?: Date): Promise<EditedRow>;
  deactivateNamespace(curator: Curator, rawId: string): Promise<string>;
  reactivateNamespace(curator: Curator, rawId: string): Promise<string>;
  deactivateResource(curator: Curator, rawId: string): Promise<string>;
  reactivateResource(curator: Curator, rawId: string, providerUrlPattern: string | null, client?: string): Promise<string>;
  deleteInstitution(curator: Curator, rawId: string): Promise<string>;
}
