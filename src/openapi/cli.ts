/**
 * `node dist/src/cli.js openapi --area resolver|registry`: prints an area's OpenAPI document, as the area
 * serves it at /openapi.json (with the configured public URL), for linting and for clients' generators.
 */
import { loadConfig } from '../config.js';
import { AREAS, buildOpenApiDocument, SERVICE_VERSION, type Area } from './openapi-document.js';

export const OPENAPI_USAGE = 'Usage: node dist/src/cli.js openapi --area resolver|registry   (prints the area\'s OpenAPI document)';

/** The area named by the arguments, or undefined when they name none. */
export function areaOfArguments(args: readonly string[]): Area | undefined {
  const at = args.indexOf('--area');
  const given = at === -1 ? args[0] : args[at + 1];
  return AREAS.find((area) => area === given);
}

export function printOpenApiDocument(area: Area): void {
  const config = loadConfig();
  const serverUrl = area === 'resolver' ? config.PUBLIC_RESOLVER_URL : config.PUBLIC_REGISTRY_URL;
  process.stdout.write(`${JSON.stringify(buildOpenApiDocument(area, { serverUrl, version: SERVICE_VERSION }), null, 2)}\n`);
}
