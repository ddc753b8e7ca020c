import http from 'node:http';

export interface OneRequest {
  method: 'GET' | 'POST';
  /** Sent on the request line exactly as given (already percent-encoded where needed). */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface OneAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP request with node:http (not fetch, whose URL parser would normalise the path). */
export function sendRequest(port: number, request: OneRequest, agent?: http.Agent): Promise<OneAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...request.headers };
    if (request.body !== undefined) headers['Content-Length'] = Buffer.byteLength(request.body);
    const req = http.request(
      { host: '127.0.0.1', port, method: request.method, path: request.path, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`${request.method} ${request.path.slice(0, 100)}: no answer within 30 s`)));
    req.on('error', reject);
    req.end(request.body);
  });
}

/** Runs `work` over the items with at most `limit` in flight; results in input order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  });
  await Promise.all(lanes);
  return results;
}
