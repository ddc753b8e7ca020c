import { mapInSlices } from '../../lib/loop-turns.js';
import type { FeedChange } from './change-feed.service.js';
import { changeTitle, changeUrl, operationWord } from './changes.presenter.js';

export const ATOM_TYPE = 'application/atom+xml';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
// Characters XML 1.0 cannot hold at all, even escaped; the registry's text never should, but a prefix is input.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function xml(text: string): string {
  return text.replace(NOT_XML, '\uFFFD').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

export interface AtomFeedOptions {
  publicRegistryUrl: string;
  /** This feed's own URL (rel="self"). */
  selfUrl: string;
  /** The next page's URL, when there is one to read (rel="next"). */
  nextUrl?: string;
  /** The time of the newest change in the log; the feed's <updated> (now when the log is empty). */
  updated: Date;
}

function entry(change: FeedChange, publicRegistryUrl: string): string {
  const url = changeUrl(change, publicRegistryUrl);
  const title = changeTitle(change);
  return [
    '  <entry>',
    // Versions are never reused (the log's sequence), so each change keeps this id for good.
    `    <id>${xml(`${publicRegistryUrl}/changes/${change.version}`)}</id>`,
    `    <title>${xml(title)}</title>`,
    `    <updated>${change.changedAt.toISOString()}</updated>`,
    ...(url ? [`    <link rel="alternate" href="${xml(url)}"/>`] : []),
    `    <category term="${operationWord(change)}"/>`,
    `    <content type="text">${xml(`${title} (registry change ${change.version}, cursor ${change.cursor})`)}</content>`,
    '  </entry>',
  ].join('\n');
}

// Some 200 entries take about a millisecond to write.
const ENTRIES_PER_SLICE = 200;

/** The change feed as an Atom 1.0 document (RFC 4287), written a slice of entries per turn of the event loop. */
export async function atomFeed(changes: FeedChange[], options: AtomFeedOptions): Promise<string> {
  const { publicRegistryUrl } = options;
  const entries = await mapInSlices(changes, (change) => entry(change, publicRegistryUrl), ENTRIES_PER_SLICE);
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${xml(`${publicRegistryUrl}/changes`)}</id>`,
    '  <title>Registry changes</title>',
    `  <updated>${options.updated.toISOString()}</updated>`,
    // RFC 4287 §4.1.1: every entry needs an author, which the feed's gives them.
    `  <author><name>${xml(publicRegistryUrl)}</name></author>`,
    `  <link rel="self" type="${ATOM_TYPE}" href="${xml(options.selfUrl)}"/>`,
    `  <link rel="alternate" href="${xml(`${publicRegistryUrl}/`)}"/>`,
    ...(options.nextUrl ? [`  <link rel="next" type="${ATOM_TYPE}" href="${xml(options.nextUrl)}"/>`] : []),
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}
