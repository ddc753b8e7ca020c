import { etagOf, type DatasetManifest } from '../../dataset/dataset-files.js';
import { EXPORT_FORMATS } from '../../dataset/export-formats.js';

/**
 * The payload of GET /resolutionApi/export: every export with its URL, media type and description, and,
 * once a build has written them, its size, ETag and the build it comes from.
 */
export function presentExportIndex(manifest: DatasetManifest | null, publicRegistryUrl: string) {
  const exported = manifest?.exports;
  return {
    formats: EXPORT_FORMATS.map((format) => {
      const files = exported?.files[format.name];
      return {
        name: format.name,
        url: `${publicRegistryUrl}/resolutionApi/export/${format.name}`,
        mediaType: format.mediaType,
        description: format.description,
        size: files?.size ?? null,
        gzipSize: files?.gzipSize ?? null,
        etag: files ? etagOf(files, false) : null,
      };
    }),
    build:
      manifest && exported
        ? {
            registryVersion: manifest.registryVersion,
            namespaceCount: manifest.namespaceCount,
            resourceCount: manifest.resourceCount,
            builtAt: manifest.builtAt,
            lastModified: exported.lastModified,
          }
        : null,
  };
}
