import { formatReferenceDate } from '../../lib/dates.js';
import { envelope, type Envelope } from '../../http/envelope.js';
import type { HalItem, Links } from '../model/hal.presenter.js';
import type { CurationWarning, CurationWarningEvent, WarningsSummary } from '../model/curation-warnings.js';

/** The curation warnings' wire shapes: HAL as Spring Data REST writes the reference's, and the summary envelope. */
export class WarningsPresenter {
  readonly api: string;

  constructor(publicRegistryUrl: string) {
    this.api = `${publicRegistryUrl}/restApi`;
  }

  /**
   * The reference's CurationWarning item: `globalId, type, open, created, modified, lastNotification`, the
   * computed `latestEvent` and `moreDetails`, and links: `self` and `events` for a stored warning (one
   * computed on request has no item of its own), and `target`.
   */
  warning(w: CurationWarning): HalItem {
    const links: Links = {};
    if (w.id !== null) links.self = { href: `${this.api}/curationWarnings/${w.id}` };
    links.target = { href: `${this.api}${w.targetPath}` };
    if (w.id !== null) links.events = { href: `${this.api}/curationWarnings/${w.id}/events` };
    return {
      globalId: w.globalId,
      type: w.type,
      open: w.open,
      created: formatReferenceDate(w.created),
      modified: formatReferenceDate(w.modified),
      lastNotification: formatReferenceDate(w.lastNotification),
      latestEvent: { type: w.latestEvent.type, created: formatReferenceDate(w.latestEvent.created) },
      moreDetails: w.moreDetails,
      _links: links,
    };
  }

  /**
   * An item's curation warnings, a to-many association whose items the reference files under the rel
   * `curationWarnings` (the rel key stays even when the list is empty, as Spring Data REST answers it).
   */
  warnings(warnings: readonly CurationWarning[], selfHref: string): { _embedded: { curationWarnings: HalItem[] }; _links: Links } {
    return { _embedded: { curationWarnings: warnings.map((w) => this.warning(w)) }, _links: { self: { href: selfHref } } };
  }

  /** A warning's history: `type, actor, created` per event, oldest first. */
  events(events: readonly CurationWarningEvent[], selfHref: string): { _embedded: { curationWarningEvents: HalItem[] }; _links: Links } {
    return {
      _embedded: {
        curationWarningEvents: events.map((e) => ({
          type: e.type,
          actor: e.actor,
          created: formatReferenceDate(e.created),
          _links: { curationWarning: { href: `${this.api}/curationWarnings/${e.warningId}` } },
        })),
      },
      _links: { self: { href: selfHref } },
    };
  }

  summary(summary: WarningsSummary): Envelope<WarningsSummary> {
    return envelope({ namespaceUsage: summary.namespaceUsage, summaryEntries: summary.summaryEntries });
  }
}
