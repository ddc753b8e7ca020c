import { Readable } from 'node:stream';
import type { RegistrySnapshot } from '../core/registry-snapshot.js';
import { resolveCompactId } from '../core/resolve.js';
import { ENVELOPE_JSON_HEAD } from '../http/envelope.js';
import { MAX_ITEM_LENGTH } from './batch-request.js';
import { HEAVY_UNIT_MS, type HeavyWork } from './heavy-work.js';
import { payloadExtensionsJson } from './payload-extensions.js';
import { resolutionErrorMessage, resolutionStatus } from './resolution.presenter.js';
import { resolvedResourcesJson } from './resolve-json.js';

const HEAD = `${ENVELOPE_JSON_HEAD}{"results":[`;
// Closes the list, the payload and the envelope.
const TAIL = ']}}';

export interface BatchAnswerOptions {
  identifiers: readonly unknown[];
  snapshot: RegistrySnapshot;
  publicRegistryUrl: string;
  /** Told about each item that resolved (usage counting); absent when not counting. */
  countResolution?: (prefix: string) => void;
  heavy: HeavyWork;
  client: string;
}

/**
 * The answer of POST /resolve/batch as a stream of JSON text, resolved and written a slice of about
 * HEAVY_UNIT_MS at a time, each slice a unit of the client's heavy work (see heavy-work.ts): a batch of 1,000
 * answers is megabytes of JSON, which must neither hold the event loop nor sit in memory whole. The next
 * slice is asked for only when the connection has taken the last one. The text is exactly what one
 * JSON.stringify of the whole answer would give.
 */
export class BatchAnswer extends Readable {
  readonly #options: BatchAnswerOptions;
  readonly #resolveOptions: { publicRegistryUrl: string };
  #position = 0;

  constructor(options: BatchAnswerOptions) {
    super();
    this.#options = options;
    this.#resolveOptions = { publicRegistryUrl: options.publicRegistryUrl };
  }

  override _read(): void {
    this.#options.heavy.defer(this.#options.client, this.#writeSlice);
  }

  readonly #writeSlice = (): void => {
    // The client went away: Koa destroyed the stream.
    if (this.destroyed) return;
    const { identifiers } = this.#options;
    const started = performance.now();
    let text = this.#position === 0 ? HEAD : '';
    try {
      while (this.#position < identifiers.length) {
        if (this.#position > 0) text += ',';
        text += this.#itemJson(identifiers[this.#position], this.#position);
        this.#position++;
        if ((this.#position & 15) === 0 && performance.now() - started >= HEAVY_UNIT_MS) break;
      }
    } catch (error) {
      // Koa's pipeline then cuts the connection: the status line went out with the first slice.
      this.destroy(error as Error);
      return;
    }
    if (this.#position < identifiers.length) {
      this.push(text);
      return;
    }
    this.push(text + TAIL);
    this.push(null);
  };

  /** One item exactly as the single GET would answer it, with that call's HTTP status. */
  #itemJson(item: unknown, position: number): string {
    if (typeof item !== 'string' || item.length > MAX_ITEM_LENGTH) {
      const problem = typeof item !== 'string' ? 'must be a string' : `is longer than ${MAX_ITEM_LENGTH} characters`;
      return JSON.stringify({
        compactIdentifier: typeof item === 'string' ? item.slice(0, 100) : null,
        status: 400,
        errorMessage: `compactIdentifiers[${position}] ${problem}`,
        resolvedResources: null,
        parsedCompactIdentifier: null,
      });
    }
    const { snapshot, countResolution } = this.#options;
    const resolution = resolveCompactId(item, snapshot, this.#resolveOptions);
    const parsed = resolution.kind === 'resolved' ? resolution.parsedCompactIdentifier : null;
    const namespace = parsed?.namespace;
    // Each identifier of a batch is a resolution of its namespace, as if it had been asked alone.
    if (countResolution && namespace) {
      countResolution(snapshot.namespacesByPrefix.get(namespace.toLowerCase())?.prefix ?? namespace);
    }
    return `{"compactIdentifier":${JSON.stringify(item)},"status":${resolutionStatus(resolution)},"errorMessage":${JSON.stringify(resolutionErrorMessage(resolution))},"resolvedResources":${resolvedResourcesJson(resolution)},"parsedCompactIdentifier":${JSON.stringify(parsed)}${resolution.kind === 'resolved' ? payloadExtensionsJson(resolution) : ''}}`;
  }
}
