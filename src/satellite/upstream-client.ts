/**
 * The satellite's requests to its upstream registry area. The upstream is the operator's own registry
 * (SATELLITE_UPSTREAM_URL), never a user-supplied address, so these go out with Node's fetch rather than the
 * guarded client of user URLs (lib/http-client.ts), which refuses loopback and private networks.
 */

/** The upstream answered, but not as the satellite expects (a 5xx, a malformed body). */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

export interface FeedEntry {
  cursor: string;
  version: number;
  entity: 'namespace' | 'institution' | 'location';
  entityId: string;
}

export interface FeedPage {
  changes: FeedEntry[];
  next: string;
  more: boolean;
}

export interface DatasetDownload {
  /** The dataset's `payload.namespaces`, as the reference writes them. */
  namespaces: unknown[];
  etag: string | null;
  registryVersion: number;
  /** Where the change feed resumes after this dataset (X-Registry-Change-Cursor). */
  cursor: string;
  /** The database it was built from (X-Registry-Database). */
  databaseId: string | null;
}

/** Feed pages the satellite reads at a time (the feed's largest). */
const FEED_PAGE = 1000;
const API_TIMEOUT_MS = 10_000;
const DATASET_TIMEOUT_MS = 300_000;

export class UpstreamClient {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  private async get(path: string, timeoutMs = API_TIMEOUT_MS, headers: Record<string, string> = {}, method = 'GET'): Promise<Response> {
    try {
      return await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${this.token}`, Accept: 'application/json', ...headers },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new UpstreamError(`cannot reach ${this.baseUrl}: ${describeFetchError(error)}`);
    }
  }

  private async payloadOf<T>(response: Response, what: string): Promise<T> {
    let body: { payload?: T; errorMessage?: string | null };
    try {
      body = (await response.json()) as typeof body;
    } catch (error) {
      throw new UpstreamError(`${what}: the upstream's answer (${response.status}) is not JSON: ${(error as Error).message}`, response.status);
    }
    if (!response.ok) throw new UpstreamError(`${what}: the upstream answered ${response.status}: ${body.errorMessage ?? ''}`, response.status);
    if (body.payload === undefined || body.payload === null) throw new UpstreamError(`${what}: the upstream's answer has no payload`, response.status);
    return body.payload;
  }

  /** The current dataset (gzip on the wire; fetch decompresses it). */
  async dataset(): Promise<DatasetDownload> {
    const response = await this.get('/resolutionApi/getResolverDataset', DATASET_TIMEOUT_MS, { 'Accept-Encoding': 'gzip' });
    const payload = await this.payloadOf<{ namespaces?: unknown }>(response, 'the dataset');
    const cursor = response.headers.get('X-Registry-Change-Cursor');
    if (!cursor) {
      // Built before the upstream knew satellites; its next build (any registry change, or the nightly one) carries it.
      throw new UpstreamError('the upstream dataset carries no X-Registry-Change-Cursor (built by an older version); waiting for its next build');
    }
    if (!Array.isArray(payload.namespaces)) throw new UpstreamError('the dataset has no namespace list');
    return {
      namespaces: payload.namespaces,
      etag: response.headers.get('ETag'),
      registryVersion: Number(response.headers.get('X-Registry-Version') ?? 0) || 0,
      cursor,
      databaseId: response.headers.get('X-Registry-Database'),
    };
  }

  /** The database the upstream's current dataset was built from (a HEAD request: no body); null when it does not say. */
  async datasetDatabase(): Promise<string | null> {
    const response = await this.get('/resolutionApi/getResolverDataset', API_TIMEOUT_MS, {}, 'HEAD');
    await response.body?.cancel();
    if (response.status !== 200 && response.status !== 304) throw new UpstreamError(`the dataset: the upstream answered ${response.status}`, response.status);
    return response.headers.get('X-Registry-Database');
  }

  /** The changes after `since`; null when the upstream does not know the cursor (the satellite loads the dataset again). */
  async changesAfter(since: string): Promise<FeedPage | null> {
    const response = await this.get(`/changes?since=${encodeURIComponent(since)}&limit=${FEED_PAGE}`);
    if (response.status === 400) {
      await response.body?.cancel();
      return null;
    }
    return this.payloadOf<FeedPage>(response, 'the change feed');
  }

  async namespaces<T>(ids: readonly number[]): Promise<{ registryVersion: number; namespaces: T[]; missing: number[] }> {
    return this.payloadOf(await this.get(`/satelliteApi/namespaces?ids=${ids.join(',')}`), 'the changed namespaces');
  }

  async overrides<T>(): Promise<T[]> {
    return (await this.payloadOf<{ namespaces: T[] }>(await this.get('/satelliteApi/overrides'), 'the namespace overrides')).namespaces;
  }

  /** The link-check measurements the upstream's resolvers rank by (core/measurement-wire.ts), unchecked. */
  async measurements(): Promise<unknown> {
    return (await this.payloadOf<{ measurements?: unknown }>(await this.get('/satelliteApi/measurements'), 'the link-check measurements')).measurements;
  }

  /** Sends one usage batch; resolves once the upstream has it (counted now or before). */
  async sendUsage(batch: unknown): Promise<void> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}/satelliteApi/usage`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${this.token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(batch),
        signal: AbortSignal.timeout(API_TIMEOUT_MS),
      });
    } catch (error) {
      throw new UpstreamError(`cannot reach ${this.baseUrl}: ${describeFetchError(error)}`);
    }
    await this.payloadOf(response, 'the usage batch');
  }
}

function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
