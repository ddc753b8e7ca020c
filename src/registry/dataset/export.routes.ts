import { Router } from '@koa/router';
import { EXPORT_FORMATS, exportFormatNamed } from '../../dataset/export-formats.js';
import { sendCacheableJson } from '../../http/conditional-get.js';
import { envelope } from '../../http/envelope.js';
import { notFound } from '../../http/http-error.js';
import type { DatasetService } from './dataset.service.js';
import { presentExportIndex } from './export-index.presenter.js';
import { sendPrebuilt } from './prebuilt-answer.js';

export interface ExportRouteDeps {
  service: DatasetService;
  publicRegistryUrl: string;
}

const FORMAT_NAMES = EXPORT_FORMATS.map((format) => format.name).join(', ');

/**
 * GET /resolutionApi/export (the index) and /resolutionApi/export/{format}: the registry exports the dataset
 * build wrote with the dataset, sent as the dataset is (prebuilt file, ETag, gzip, caching).
 */
export function exportRoutes(deps: ExportRouteDeps): Router {
  const router = new Router();

  router.get('/resolutionApi/export', async (ctx) => {
    sendCacheableJson(ctx, envelope(presentExportIndex(await deps.service.currentManifest(), deps.publicRegistryUrl)), 60);
  });

  router.get('/resolutionApi/export/:format', async (ctx) => {
    const name = ctx.params.format ?? '';
    const format = exportFormatNamed(name);
    if (!format) throw notFound(`No export named '${name}'; the exports are ${FORMAT_NAMES} (GET /resolutionApi/export lists them)`);
    const gzip = ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
    const opened = await deps.service.openExport(format.name, gzip);
    sendPrebuilt(ctx, opened, {
      gzip,
      contentType: format.mediaType,
      lastModified: new Date(opened.manifest.exports!.lastModified),
      disposition: `attachment; filename="${format.name}"`,
    });
  });
  return router;
}
