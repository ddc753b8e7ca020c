import { envelope, errorEnvelope, type Envelope } from '../../http/envelope.js';
import { COLLECTIONS, type CollectionDefinition } from '../model/collections.js';
import type { HalItem, HalPresenter } from '../model/hal.presenter.js';
import type { EditableCollection, EditedRow } from '../model/record-maintenance.js';

/** The reference's payload of a refused lifecycle request (registry-behaviour.md §5.3). */
const NO_INFORMATION = '--- No additional information set ---';

/**
 * The answers of the maintenance endpoints: an edited item in the browse API's HAL shape, and the
 * lifecycle reports in the envelope `{comment}` (institution deletion: plain text, as the reference).
 */
export class MaintenancePresenter {
  constructor(private readonly hal: HalPresenter) {}

  editedItem(collection: EditableCollection, row: EditedRow): HalItem {
    // The row is the collection's (the service read it from the collection's table).
    return this.hal.item(COLLECTIONS[collection] as CollectionDefinition, row as unknown as Record<string, unknown>);
  }

  report(comment: string): Envelope<{ comment: string }> {
    return envelope({ comment });
  }

  refusal(message: string): Envelope<{ comment: string }> {
    return errorEnvelope(message, { comment: NO_INFORMATION });
  }
}
