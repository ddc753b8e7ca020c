import { Writer } from 'n3';
import { DatasetFileWriter } from './dataset-file-writer.js';
import type { DatasetExports, DatasetVariantFiles } from './dataset-files.js';
import type { DatasetNamespaceRow, DatasetResourceRow } from './dataset.presenter.js';
import { EXPORT_FORMATS, type ExportFormat } from './export-formats.js';
import {
  CONTEXT_HEAD,
  CONTEXT_TAIL,
  contextEntry,
  PREFIX_MAP_HEAD,
  PREFIX_MAP_TAIL,
  prefixMapRecord,
  type PrefixMapNamespace,
} from './export-prefix-maps.presenter.js';
import { rdfPrefixes, RegistryRdf } from './export-rdf.presenter.js';
import type { SynonymsByNamespace } from './export-synonyms.js';
import { csvRecord, NAMESPACE_TABLE, RESOURCE_TABLE, tsvLine } from './export-tables.presenter.js';
import { uriPrefixOf, type ExportUrls } from './export-uris.js';

/** Where n3's writer puts its text: taken a page at a time and written to the export's file. */
class TextSink {
  private text = '';
  write(chunk: string, _encoding?: string, done?: () => void): void {
    this.text += chunk;
    done?.();
  }
  end(done?: () => void): void {
    done?.();
  }
  take(): string {
    const text = this.text;
    this.text = '';
    return text;
  }
}

const EMPTY: readonly string[] = [];

/**
 * The exports of one dataset build, written a page of namespaces at a time from the same snapshot the
 * dataset is written from (so memory stays proportional to a page, as the dataset's does), to temporary
 * files the build publishes with the dataset's or discards with them.
 */
export class DatasetExportWriters {
  private readonly files: Record<ExportFormat, DatasetFileWriter>;
  private readonly rdf: RegistryRdf;
  private readonly turtleText = new TextSink();
  private readonly nTriplesText = new TextSink();
  private readonly turtle: Writer;
  private readonly nTriples: Writer;
  private readonly institutionsWritten = new Set<number>();
  private namespacesWritten = 0;

  constructor(
    dir: string,
    token: string,
    gzipLevel: number,
    private readonly urls: ExportUrls,
    private readonly synonyms: SynonymsByNamespace,
  ) {
    this.files = Object.fromEntries(
      EXPORT_FORMATS.map(({ name }) => [name, new DatasetFileWriter(dir, token, `export-${name}`, gzipLevel)]),
    ) as Record<ExportFormat, DatasetFileWriter>;
    this.rdf = new RegistryRdf(urls);
    // `end: false`: ending the writer finishes its last statement; the files are ended by finish().
    this.turtle = new Writer(this.turtleText, { prefixes: rdfPrefixes(urls), end: false });
    this.nTriples = new Writer(this.nTriplesText, { format: 'N-Triples', end: false });
  }

  private write(format: ExportFormat, text: string): Promise<void> {
    return this.files[format].write(text);
  }

  async start(): Promise<void> {
    const namespaceHeader = NAMESPACE_TABLE.map(([name]) => name);
    const resourceHeader = RESOURCE_TABLE.map(([name]) => name);
    await Promise.all([
      this.write('context.jsonld', CONTEXT_HEAD),
      this.write('prefixmap.json', PREFIX_MAP_HEAD),
      this.write('namespaces.tsv', tsvLine(namespaceHeader)),
      this.write('namespaces.csv', csvRecord(namespaceHeader)),
      this.write('resources.tsv', tsvLine(resourceHeader)),
      this.write('resources.csv', csvRecord(resourceHeader)),
      this.write('registry.ttl', this.turtleText.take()),
    ]);
  }

  /** One page of namespaces, in the dataset's order, with their resources. */
  async addPage(namespaces: readonly DatasetNamespaceRow[], resourcesOf: (namespaceId: number) => readonly DatasetResourceRow[]): Promise<void> {
    let context = '';
    let prefixMap = '';
    let namespacesTsv = '';
    let namespacesCsv = '';
    let resourcesTsv = '';
    let resourcesCsv = '';
    for (const row of namespaces) {
      const synonyms = this.synonyms.get(row.id) ?? EMPTY;
      const resources = resourcesOf(row.id);
      const uriPrefix = uriPrefixOf(row, this.urls.publicResolverUrl);
      const mapped: PrefixMapNamespace = { ...row, uriPrefix, synonyms };
      const separator = this.namespacesWritten === 0 ? '' : ',\n';
      context += separator + contextEntry(mapped);
      prefixMap += separator + prefixMapRecord(mapped, this.urls.publicResolverUrl);
      const cells = NAMESPACE_TABLE.map(([, value]) => value({ row, uriPrefix, synonyms }));
      namespacesTsv += tsvLine(cells);
      namespacesCsv += csvRecord(cells);
      for (const resource of resources) {
        const resourceCells = RESOURCE_TABLE.map(([, value]) => value(resource, row.prefix));
        resourcesTsv += tsvLine(resourceCells);
        resourcesCsv += csvRecord(resourceCells);
      }
      const quads = this.rdf.namespaceQuads({ row, resources, synonyms }, this.institutionsWritten);
      this.turtle.addQuads(quads);
      this.nTriples.addQuads(quads);
      this.namespacesWritten++;
    }
    await Promise.all([
      this.write('context.jsonld', context),
      this.write('prefixmap.json', prefixMap),
      this.write('namespaces.tsv', namespacesTsv),
      this.write('namespaces.csv', namespacesCsv),
      this.write('resources.tsv', resourcesTsv),
      this.write('resources.csv', resourcesCsv),
      this.write('registry.ttl', this.turtleText.take()),
      this.write('registry.nt', this.nTriplesText.take()),
    ]);
  }

  /** Writes the closing parts and finishes every file (hashes known, nothing renamed yet). */
  async finish(): Promise<void> {
    this.turtle.end();
    this.nTriples.end();
    await Promise.all([
      this.write('context.jsonld', CONTEXT_TAIL),
      this.write('prefixmap.json', PREFIX_MAP_TAIL),
      this.write('registry.ttl', this.turtleText.take()),
      this.write('registry.nt', this.nTriplesText.take()),
    ]);
    await Promise.all(Object.values(this.files).map((file) => file.finish()));
  }

  /** Renames the finished files into place as `export-<token>-<format>` (the caller fsyncs the directory). */
  async publish(token: string, previous: DatasetExports | undefined, builtAt: string): Promise<DatasetExports> {
    const files = {} as Record<ExportFormat, DatasetVariantFiles>;
    for (const { name } of EXPORT_FORMATS) files[name] = await this.files[name].publish(`export-${token}-${name}`);
    const unchanged =
      previous !== undefined &&
      EXPORT_FORMATS.every(({ name }) => previous.files[name]?.sha256 === files[name].sha256);
    return {
      publicResolverUrl: this.urls.publicResolverUrl,
      publicRegistryUrl: this.urls.publicRegistryUrl,
      lastModified: unchanged ? previous.lastModified : builtAt,
      files,
    };
  }

  async discard(): Promise<void> {
    for (const file of Object.values(this.files)) await file.discard();
  }
}
