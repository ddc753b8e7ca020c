// The rows the services hand to the HAL presenter: the tables' rows (camelCase columns, no relations).
export type { InstitutionRow, LocationRow, NamespaceRow, PersonRow, ResourceRow } from '../../db/tables.js';
