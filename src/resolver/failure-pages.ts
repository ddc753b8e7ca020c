/**
 * The failure pages a browser gets, kept once rendered. A page takes 25–70 µs to render (the advice and the
 * whole layout) where the redirect it stands in for takes a few: the resolver's benchmark, a fifth of whose
 * browser requests fail, fell from 0.97 to 0.51 of its ceiling without this. The same mistakes come again
 * (a crawler's dead links, a mistyped identifier shared in a paper), so the latest pages are kept per
 * request, for as long as the snapshot they were made from serves.
 */
import { LRUCache } from 'lru-cache';
import type { RegistrySnapshot } from '../core/registry-snapshot.js';
import type { Site } from '../web/site.js';
import { renderResolutionFailed, type ResolutionFailure } from './resolution-failed.page.js';

// Pages are a few kilobytes; at most this many bytes of them are kept.
const KEPT_BYTES = 8 * 1024 * 1024;
const KEPT_PAGES = 4000;
// Longer requests (rare, and hostile ones) are rendered each time rather than fill the cache.
const LONGEST_KEPT_REQUEST = 512;

interface KeptPage {
  snapshot: RegistrySnapshot;
  html: string;
}

export class FailurePages {
  private readonly kept = new LRUCache<string, KeptPage>({ max: KEPT_PAGES, maxSize: KEPT_BYTES, sizeCalculation: (page) => page.html.length * 2 });

  constructor(private readonly site: Site) {}

  /** The page of `raw`'s failure: kept while `snapshot` serves, since the advice is read from it. */
  render(snapshot: RegistrySnapshot, raw: string, failure: ResolutionFailure): string {
    const kept = this.kept.get(raw);
    if (kept !== undefined && kept.snapshot === snapshot) return kept.html;
    const html = renderResolutionFailed(this.site, snapshot, raw, failure);
    if (raw.length <= LONGEST_KEPT_REQUEST) this.kept.set(raw, { snapshot, html });
    return html;
  }
}
