import type Koa from 'koa';
import { useRouters } from '../../http/base-app.js';
import type { RegistryArea } from '../model/registry-area.js';
import { prefixSynonymRoutes } from './prefix-synonyms.routes.js';
import { createPrefixSynonymsService } from './prefix-synonyms.service.js';

/** The prefix-synonym export, read where the browse API reads (the replica when there is one). */
export function mountSynonyms(app: Koa, area: Pick<RegistryArea, 'browseDb'>): void {
  useRouters(app, [prefixSynonymRoutes({ synonyms: createPrefixSynonymsService(area.browseDb) })]);
}
