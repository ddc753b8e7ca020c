/**
 * The ROR API (version 2) as the institution lookup's fallback, as the reference asks ROR when the registry
 * has no institution with an id. The address is the operator's ROR_API_URL plus a checked ROR id (never a
 * text of the client's), fetched through the guarded fetcher like every outbound request.
 */
import { DomainError } from '../../../core/domain-error.js';
import { fetchJson, type FetchFailure, type FetchJsonResult } from '../../../lib/http-client.js';

/** What the registration form takes from a ROR record. */
export interface RorOrganization {
  rorId: string;
  name: string;
  homeUrl: string;
  countryCode: string | null;
  countryName: string | null;
  wikidataIds: string[];
  isniIds: string[];
}

export interface RorApiSettings {
  /** ROR_API_URL without a trailing slash; `off`: no lookup at ROR. */
  baseUrl: string;
  allowPrivateNetworks: boolean;
  userAgent: string;
}

/** Someone is waiting at the form: a ROR that does not answer within this is reported as unavailable. */
const TIMEOUT_MS = 3000;
const MAX_BODY_BYTES = 256 * 1024;
const RETRY_AFTER_SECONDS = 30;

type Raw = Record<string, unknown>;
const isObject = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);
const textOf = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

// v2: names[] with types (ror_display first); v1 had a single `name`.
function displayName(record: Raw): string | null {
  const names = list(record.names).filter(isObject);
  const display = names.find((n) => list(n.types).includes('ror_display')) ?? names.find((n) => list(n.types).includes('label')) ?? names[0];
  return textOf(display?.value) ?? textOf(record.name);
}

// v2: links[] of {type, value}, the website first; v1: links[] of strings.
function website(record: Raw): string {
  const links = list(record.links);
  const typed = links.filter(isObject);
  const site = typed.find((l) => l.type === 'website') ?? typed[0];
  return textOf(site?.value) ?? textOf(links.find((l) => typeof l === 'string')) ?? '';
}

function country(record: Raw): { code: string | null; name: string | null } {
  const details = list(record.locations).filter(isObject).map((l) => l.geonames_details).find(isObject);
  if (details) return { code: textOf(details.country_code), name: textOf(details.country_name) };
  const v1 = isObject(record.country) ? record.country : undefined;
  return { code: textOf(v1?.country_code), name: textOf(v1?.country_name) };
}

// v2: external_ids[] of {type, all}; v1: external_ids {Wikidata: {all}}.
function externalIds(record: Raw, type: string): string[] {
  const v2 = list(record.external_ids).filter(isObject).find((e) => typeof e.type === 'string' && e.type.toLowerCase() === type);
  const v1 = isObject(record.external_ids) ? Object.entries(record.external_ids).find(([key]) => key.toLowerCase() === type)?.[1] : undefined;
  const all = (v2 ?? (isObject(v1) ? v1 : undefined))?.all;
  return (Array.isArray(all) ? all : typeof all === 'string' ? [all] : []).filter((id): id is string => typeof id === 'string');
}

/** A ROR record (v2, or v1) as the form needs it; null when it has no name. */
export function readRorRecord(json: unknown, bareId: string): RorOrganization | null {
  if (!isObject(json)) return null;
  const name = displayName(json);
  if (name === null) return null;
  const { code, name: countryName } = country(json);
  return {
    rorId: textOf(json.id) ?? `https://ror.org/${bareId}`,
    name,
    homeUrl: website(json),
    countryCode: code,
    countryName,
    wikidataIds: externalIds(json, 'wikidata'),
    isniIds: externalIds(json, 'isni'),
  };
}

function describeFailure(failure: FetchFailure): string {
  switch (failure.kind) {
    case 'timeout':
      return `no answer within ${TIMEOUT_MS / 1000} s`;
    case 'refused':
      return `the address was refused: ${failure.reason}`;
    default:
      return failure.message;
  }
}

function unavailable(rorId: string, why: string): DomainError {
  return new DomainError('unavailable', `Organization information fetch for ROR ID '${rorId}' FAILED due to '${why}'`, {
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  });
}

export type RorFetch = (url: string) => Promise<FetchJsonResult>;

/**
 * Looks a (bare, checked) ROR id up at the ROR API: the organization, or undefined when ROR does not know
 * it (404). Throws DomainError 'unavailable' when ROR cannot answer (timeout, refused address, another
 * status, an unreadable record), with the reference's wording.
 */
export async function lookUpRorOrganization(settings: RorApiSettings, bareId: string, fetch?: RorFetch): Promise<RorOrganization | undefined> {
  const url = `${settings.baseUrl}/organizations/${encodeURIComponent(bareId)}`;
  const get =
    fetch ??
    ((target: string) =>
      fetchJson(target, {
        allowPrivateNetworks: settings.allowPrivateNetworks,
        timeoutMs: TIMEOUT_MS,
        maxRedirects: 2,
        maxBodyBytes: MAX_BODY_BYTES,
        userAgent: settings.userAgent,
      }));
  const result = await get(url);
  if (!result.ok) throw unavailable(bareId, describeFailure(result.failure));
  if (result.status === 404) return undefined;
  if (result.status < 200 || result.status > 299) {
    throw new DomainError('unavailable', `Organization information fetch for ROR ID '${bareId}' came back with HTTP STATUS '${result.status}'`, {
      retryAfterSeconds: RETRY_AFTER_SECONDS,
    });
  }
  const organization = readRorRecord(result.json, bareId);
  if (!organization) throw unavailable(bareId, 'the answer is not a ROR organization record');
  return organization;
}
