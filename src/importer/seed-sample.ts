import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/knex.js';
import { projectRoot } from '../lib/project-root.js';
import { importRegistry } from './import-registry.js';
import { importSynonyms, validateSynonymFile } from './import-synonyms.js';
import { keepPatternVerdictsAfterImport } from './pattern-verdicts.js';
import { validateNamespaces } from './read-dataset.js';

export const SAMPLE_REGISTRY_FILE = path.join(projectRoot(), 'seeds', 'sample-registry.json');
/** A few prefix synonyms of the sample's namespaces (`ncbitaxon:9606`), so a first run shows the feature. */
export const SAMPLE_SYNONYMS_FILE = path.join(projectRoot(), 'seeds', 'sample-synonyms.json');

/**
 * Loads the hand-written sample registry and its synonyms when there is no namespace yet, so that a first
 * `npm start` has something to resolve. Answers how many namespaces were loaded (0 when the registry was not
 * empty), and why no ReDoS verdict was kept when keeping them failed (the resolvers then check the patterns
 * themselves: a warning, not a failed start).
 */
export async function seedSampleRegistryIfEmpty(db: Db): Promise<{ loaded: number; verdictsNotKept?: string }> {
  const existing = await db('namespaces').first('id');
  if (existing) return { loaded: 0 };
  const namespaces = validateNamespaces(JSON.parse(await readFile(SAMPLE_REGISTRY_FILE, 'utf8')));
  await importRegistry(db, namespaces, {});
  await importSynonyms(db, validateSynonymFile(JSON.parse(await readFile(SAMPLE_SYNONYMS_FILE, 'utf8'))));
  const verdicts = await keepPatternVerdictsAfterImport(db);
  return 'notKept' in verdicts ? { loaded: namespaces.length, verdictsNotKept: verdicts.notKept } : { loaded: namespaces.length };
}
