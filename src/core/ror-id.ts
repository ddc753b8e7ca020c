/**
 * ROR ids (https://ror.org): the one rule of what the registry takes as an institution's ROR id, for a
 * registration request (submission, the form's field check, a curator's amendment), a curator's edit of an
 * institution, and acceptance. A ROR id is `0`, 6 base-32 characters and a 2-digit checksum, written alone
 * or as its URL; the registry stores the URL (`https://ror.org/02catss52`), which the pages link to.
 */

const ROR_ID = /^(?:https?:\/\/(?:www\.)?ror\.org\/)?(0[a-z0-9]{6}[0-9]{2})\/?$/i;
// No ROR id is longer than its URL with `www.` and a slash; a longer text is refused before the pattern.
const LONGEST_ROR_ID = 'https://www.ror.org/012345678/'.length;

/** The bare id (`00f54p054`) of a text written as a ROR id, or undefined when it is not one. */
export function bareRorId(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed.length > LONGEST_ROR_ID) return undefined;
  return ROR_ID.exec(trimmed)?.[1]?.toLowerCase();
}

/** The stored form (`https://ror.org/<id>`) of a text written as a ROR id, or undefined when it is not one. */
export function canonicalRorId(text: string): string | undefined {
  const bare = bareRorId(text);
  return bare === undefined ? undefined : `https://ror.org/${bare}`;
}

/** Why a text is not a ROR id (the message requesters and curators see), or null when it is one. */
export function rorIdProblem(text: string): string | null {
  if (bareRorId(text) !== undefined) return null;
  return `Institution ROR ID '${text.slice(0, 200)}' is not a ROR ID (such as https://ror.org/02catss52)`;
}
