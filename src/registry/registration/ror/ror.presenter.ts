import type { InstitutionWithLocationRow } from './ror.service.js';

/** The reference's raw Institution JSON (no envelope), fields in its order. */
export interface InstitutionJson {
  id: number;
  name: string;
  homeUrl: string;
  description: string;
  rorId: string | null;
  location: { countryCode: string; countryName: string };
}

export function institutionJson(row: InstitutionWithLocationRow): InstitutionJson {
  return {
    id: row.id,
    name: row.name,
    homeUrl: row.homeUrl,
    description: row.description,
    rorId: row.rorId,
    location: { countryCode: row.countryCode, countryName: row.countryName },
  };
}
