/**
 * The reverse-lookup index: provider URL patterns of the registry, arranged so that a provider URL can be
 * taken back to the namespace it belongs to (resolver-behaviour.md §3.2). Built once per registry snapshot
 * and never mutated, apart from the memoised LUI regexes.
 */
import type { NamespaceEntry, RegistrySnapshot, ResourceEntry } from './registry-snapshot.js';

export const ID_PLACEHOLDER = '{$id}';

/** One non-deprecated resource of a non-deprecated namespace. */
export interface ReverseIndexEntry {
  readonly prefix: string;
  readonly resourceId: number;
  /** Position in (prefix, resource id) order; every tie in reverse lookup is broken by it. */
  readonly rank: number;
  readonly embedded: boolean;
  readonly luiPattern: string;
  /**
   * For a namespace embedded in its LUIs, the LUI's own prefix and colon as the pattern spells it
   * (`CHEBI:`, `VariO:`); '' otherwise or when the pattern does not show it.
   */
  readonly luiPrefix: string;
  /** The normalised URL pattern cut at each `{$id}` (so at least two parts). */
  readonly templateParts: readonly string[];
  /** Length of the template without its placeholders. */
  readonly templateLength: number;
  /** Host of the normalised pattern; null when the placeholder sits inside the host. */
  readonly host: string | null;
  /** This template's character counts live in `bagSlots`/`bagCounts` of the index, from bagStart to bagEnd. */
  readonly bagStart: number;
  readonly bagEnd: number;
}

/** One way a URL key leads to an entry. */
export interface KeyCandidate {
  readonly entry: ReverseIndexEntry;
  /**
   * The template this key was cut from: the entry's own or, for the key that stops before an embedded
   * `PREFIX:`, the entry's template without that text (so the URL's own id text fits the placeholder).
   */
  readonly templateParts: readonly string[];
  /** Text after the placeholder, dropped from an accession derived from the URL; '' when there is none. */
  readonly suffix: string;
  /** Reached through the key without the embedded `PREFIX:`, which the reference does not have. */
  readonly withoutEmbeddedPrefix: boolean;
}

export interface KeyGroup {
  /** Normalised URL text before the placeholder. */
  readonly key: string;
  /**
   * The reference's own candidates first, so that a key it knows answers as it does; each part in rank order.
   */
  readonly candidates: readonly KeyCandidate[];
}

export interface HostBucket {
  /** Distinct key lengths in this host, longest first. */
  readonly lengths: number[];
  /**
   * For each of `lengths`, the last characters its keys end with: a URL whose character at that length
   * is none of them cannot start with such a key, which spares slicing and hashing the URL for every key
   * length of a busy host (ebi.ac.uk has 38).
   */
  readonly lastChars: string[];
  readonly groups: Map<string, KeyGroup>;
}

export interface ReverseIndex {
  readonly snapshotVersion: number;
  /** In rank order. */
  readonly entries: readonly ReverseIndexEntry[];
  readonly keyCount: number;
  /** Keys containing a `/`, `?` or `#`, by their host: a key can only be a prefix of a URL with the same host. */
  readonly keysByHost: ReadonlyMap<string, HostBucket>;
  /** Keys that end inside the host, longest first. */
  readonly hostlessKeys: readonly KeyGroup[];
  /** By the host of their pattern, each list ordered by template length. */
  readonly entriesByHost: ReadonlyMap<string, readonly ReverseIndexEntry[]>;
  /** Entries with one placeholder ordered by template length, and those lengths, for length-window scans. */
  readonly entriesByLength: readonly ReverseIndexEntry[];
  readonly templateLengths: Int32Array;
  /** Entries with several placeholders, whose filled length depends on the accession's. */
  readonly multiPlaceholderEntries: readonly ReverseIndexEntry[];
  /** Pooled sparse character counts of every template (see bagSlot). */
  readonly bagSlots: Uint8Array;
  readonly bagCounts: Uint16Array;
}

const SCHEME_AND_WWW = /^https?:\/\/(?:www\.)?/i;

/**
 * The reference's `normalizeUrl` (drop `http(s)://` and `www.`, then one trailing `/`), made insensitive to
 * the case of the scheme, `www.` and host, which URLs do not distinguish either. Paths stay case-sensitive.
 */
export function normalizeReverseUrl(url: string): string {
  const match = SCHEME_AND_WWW.exec(url);
  let normalised = match ? url.slice(match[0].length) : url;
  if (normalised.endsWith('/')) normalised = normalised.slice(0, -1);
  if (!match) return normalised;
  const end = hostEnd(normalised);
  const host = end === -1 ? normalised : normalised.slice(0, end);
  const lowered = host.toLowerCase();
  return lowered === host ? normalised : lowered + normalised.slice(host.length);
}

/** Index of the first `/`, `?` or `#`, which ends the host of a normalised URL; -1 when there is none. */
export function hostEnd(normalised: string): number {
  for (let i = 0; i < normalised.length; i++) {
    const c = normalised.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x23) return i;
  }
  return -1;
}

export const BAG_SLOT_COUNT = 128;

/**
 * Characters counted for the bag-distance bound; everything beyond ASCII shares the last slot, which can only
 * lower the bound, never make it wrong.
 */
export function bagSlot(charCode: number): number {
  return charCode < BAG_SLOT_COUNT - 1 ? charCode : BAG_SLOT_COUNT - 1;
}

export function buildReverseIndex(snapshot: RegistrySnapshot): ReverseIndex {
  const namespaces = [...snapshot.namespacesByPrefix.values()]
    .filter((ns) => !ns.deprecated)
    .sort((a, b) => compareText(a.prefix.toLowerCase(), b.prefix.toLowerCase()));

  const entries: ReverseIndexEntry[] = [];
  const groups = new Map<string, { key: string; candidates: KeyCandidate[] }>();
  const entriesByHost = new Map<string, ReverseIndexEntry[]>();
  const slots: number[] = [];
  const counts: number[] = [];
  const histogram = new Int32Array(BAG_SLOT_COUNT);

  const addCandidate = (key: string, candidate: KeyCandidate): void => {
    // An empty key would claim every URL that no real key matches.
    if (key === '') return;
    let group = groups.get(key);
    if (!group) {
      group = { key, candidates: [] };
      groups.set(key, group);
    }
    group.candidates.push(candidate);
  };

  for (const ns of namespaces) {
    const luiPrefix = ns.namespaceEmbeddedInLui ? findLuiPrefix(ns) : '';
    for (const resource of activeResourcesInIdOrder(ns)) {
      const templateParts = normalizeReverseUrl(resource.urlPattern).split(ID_PLACEHOLDER);
      // Without a placeholder a pattern can neither be cut into a key nor produce an accession.
      if (templateParts.length < 2) continue;

      const bagStart = slots.length;
      histogram.fill(0);
      let templateLength = 0;
      for (const part of templateParts) {
        templateLength += part.length;
        for (let i = 0; i < part.length; i++) histogram[bagSlot(part.charCodeAt(i))]! += 1;
      }
      for (let slot = 0; slot < BAG_SLOT_COUNT; slot++) {
        const count = histogram[slot]!;
        if (count === 0) continue;
        slots.push(slot);
        // Capping a count only weakens the bound.
        counts.push(Math.min(count, 0xffff));
      }

      const head = templateParts[0]!;
      const end = hostEnd(head);
      const entry: ReverseIndexEntry = {
        prefix: ns.prefix,
        resourceId: resource.id,
        rank: entries.length,
        embedded: ns.namespaceEmbeddedInLui,
        luiPattern: ns.pattern,
        luiPrefix,
        templateParts,
        templateLength,
        host: end === -1 ? null : head.slice(0, end),
        bagStart,
        bagEnd: slots.length,
      };
      entries.push(entry);
      if (entry.host !== null) pushTo(entriesByHost, entry.host, entry);

      const suffix = templateParts.length === 2 ? templateParts[1]! : '';
      addCandidate(head, { entry, templateParts, suffix, withoutEmbeddedPrefix: false });
      // The same page is often linked with the LUI's prefix in another case or without it
      // (`chebiId=36927`), and an explicit accession `CHEBI:36927` starts before the key's `CHEBI:`.
      const embeddedMarker = ns.prefix + ':';
      if (ns.namespaceEmbeddedInLui && endsWithIgnoreCase(head, embeddedMarker)) {
        const shortHead = head.slice(0, head.length - embeddedMarker.length);
        addCandidate(shortHead, {
          entry,
          templateParts: [shortHead, ...templateParts.slice(1)],
          suffix,
          withoutEmbeddedPrefix: true,
        });
      }
    }
  }

  const keysByHost = new Map<string, HostBucket>();
  const hostlessKeys: KeyGroup[] = [];
  for (const group of groups.values()) {
    // Entries were added in rank order and sort is stable.
    group.candidates.sort((a, b) => Number(a.withoutEmbeddedPrefix) - Number(b.withoutEmbeddedPrefix));
    const end = hostEnd(group.key);
    if (end === -1) {
      hostlessKeys.push(group);
      continue;
    }
    const host = group.key.slice(0, end);
    let bucket = keysByHost.get(host);
    if (!bucket) {
      bucket = { lengths: [], lastChars: [], groups: new Map() };
      keysByHost.set(host, bucket);
    }
    bucket.groups.set(group.key, group);
    if (!bucket.lengths.includes(group.key.length)) bucket.lengths.push(group.key.length);
  }
  for (const bucket of keysByHost.values()) {
    bucket.lengths.sort((a, b) => b - a);
    const last = new Map<number, string>();
    for (const key of bucket.groups.keys()) {
      const char = key[key.length - 1]!;
      const known = last.get(key.length) ?? '';
      if (!known.includes(char)) last.set(key.length, known + char);
    }
    bucket.lastChars.push(...bucket.lengths.map((length) => last.get(length)!));
  }
  const byTemplateLength = (a: ReverseIndexEntry, b: ReverseIndexEntry) =>
    a.templateLength - b.templateLength || a.rank - b.rank;
  for (const list of entriesByHost.values()) list.sort(byTemplateLength);
  const entriesByLength = entries.filter((e) => e.templateParts.length === 2).sort(byTemplateLength);
  hostlessKeys.sort((a, b) => b.key.length - a.key.length || compareText(a.key, b.key));

  return {
    snapshotVersion: snapshot.version,
    entries,
    keyCount: groups.size,
    keysByHost,
    hostlessKeys,
    entriesByHost,
    entriesByLength,
    templateLengths: Int32Array.from(entriesByLength, (e) => e.templateLength),
    multiPlaceholderEntries: entries.filter((e) => e.templateParts.length > 2),
    bagSlots: Uint8Array.from(slots),
    bagCounts: Uint16Array.from(counts),
  };
}

/**
 * The longest key that is a prefix of the normalised URL `normalised` and at most `maxLength` long, so that
 * the key is also a prefix of `normalised.slice(0, maxLength)`.
 */
export function findLongestKey(index: ReverseIndex, normalised: string, maxLength: number): KeyGroup | undefined {
  const end = hostEnd(normalised);
  if (end !== -1) {
    const bucket = index.keysByHost.get(normalised.slice(0, end));
    if (bucket) {
      const { lengths, lastChars } = bucket;
      for (let i = 0; i < lengths.length; i++) {
        const length = lengths[i]!;
        if (length > maxLength || !lastChars[i]!.includes(normalised.charAt(length - 1))) continue;
        const group = bucket.groups.get(normalised.slice(0, length));
        if (group) return group;
      }
    }
  }
  for (const group of index.hostlessKeys) {
    if (group.key.length <= maxLength && normalised.startsWith(group.key)) return group;
  }
  return undefined;
}

/**
 * Resolution puts only the part of an embedded LUI after its first `:` into the URL (§1.4 B5), so turning a
 * URL back into a LUI needs the prefix as the LUI spells it, which only the pattern shows (`^CHEBI:\d+$`,
 * `^(P)?EO\:\d{7}$`, `^VariO:\d+$`); sample ids hold the local part only.
 */
function findLuiPrefix(ns: NamespaceEntry): string {
  const pattern = ns.pattern;
  const lowerPattern = pattern.toLowerCase();
  const lowerPrefix = ns.prefix.toLowerCase();
  if (lowerPrefix === '') return '';
  for (let at = lowerPattern.indexOf(lowerPrefix); at !== -1; at = lowerPattern.indexOf(lowerPrefix, at + 1)) {
    const after = at + lowerPrefix.length;
    if (pattern.startsWith(':', after) || pattern.startsWith('\\:', after)) {
      return pattern.slice(at, after) + ':';
    }
  }
  return '';
}

function activeResourcesInIdOrder(ns: NamespaceEntry): ResourceEntry[] {
  return ns.resources.filter((r) => !r.deprecated).sort((a, b) => a.id - b.id);
}

function endsWithIgnoreCase(text: string, ending: string): boolean {
  return text.length >= ending.length && text.slice(text.length - ending.length).toLowerCase() === ending.toLowerCase();
}

// Code-unit order, not localeCompare: the order must not depend on the host's locale.
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
