/**
 * A provider site standing in for real ones in the link-check tests (127.0.0.1 only): each path behaves as
 * a provider may, and every request is recorded with its method, start and end, so that tests measure the
 * checker's politeness where a provider would, at the server.
 *
 *   /ok/...             200 (HEAD too)
 *   /status/<code>/...  that status
 *   /head-refused/...   HEAD 405, GET 200
 *   /delay/<ms>/...     200 after <ms>
 *   /hang/...           never answers (dropped at close)
 *   /retry-once/<key>   429 with Retry-After: 1 on the first request of <key>, 200 afterwards
 *   /retry-always/...   429 with Retry-After: 1
 *   /challenge/...      403 with a Cloudflare-style "Just a moment..." page
 *   /cf/...             503 with cf-mitigated: challenge
 *   /loop/<a|b>         302 to the other one
 *   /huge/...           HEAD 405, GET 200 with an endless body
 *   anything else       200
 */
import http from 'node:http';
import type net from 'node:net';

export interface FixtureRequest {
  method: string;
  path: string;
  userAgent: string;
  start: number;
  end?: number;
}

const CHALLENGE_PAGE =
  '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>' +
  '<script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script></body></html>';

export async function startLinkFixture() {
  const sockets = new Set<net.Socket>();
  const requests: FixtureRequest[] = [];
  const retried = new Set<string>();
  let inFlight = 0;
  let maxInFlight = 0;
  let hugeClosed = 0;
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fixture').pathname;
    const record: FixtureRequest = { method: req.method ?? '', path, userAgent: req.headers['user-agent'] ?? '', start: Date.now() };
    requests.push(record);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let ended = false;
    const done = () => {
      if (ended) return;
      ended = true;
      inFlight -= 1;
      record.end = Date.now();
    };
    res.on('close', done);
    const answer = (status: number, headers: Record<string, string> = {}, body = `status ${status}`) => {
      res.writeHead(status, { 'content-type': 'text/html', ...headers });
      res.end(body);
    };
    const [, kind, arg] = path.split('/');
    switch (kind) {
      case 'status':
        return answer(Number(arg));
      case 'head-refused':
        return req.method === 'HEAD' ? answer(405) : answer(200);
      case 'delay':
        return void setTimeout(() => answer(200), Number(arg));
      case 'hang':
        return;
      case 'retry-once': {
        if (retried.has(path)) return answer(200);
        retried.add(path);
        return answer(429, { 'retry-after': '1' });
      }
      case 'retry-always':
        return answer(429, { 'retry-after': '1' });
      case 'challenge':
        return answer(403, { server: 'cloudflare' }, CHALLENGE_PAGE);
      case 'cf':
        return answer(503, { 'cf-mitigated': 'challenge' });
      case 'loop':
        res.writeHead(302, { location: arg === 'a' ? '/loop/b' : '/loop/a' });
        return res.end();
      case 'huge': {
        if (req.method === 'HEAD') return answer(405);
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = Buffer.alloc(16 * 1024, 0x61);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        res.on('close', () => (hugeClosed += 1));
        return pump();
      }
      default:
        return answer(200);
    }
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url: (p: string) => `http://127.0.0.1:${port}${p}`,
    requests,
    /** Requests whose path starts with `prefix`. */
    requestsTo: (prefix: string) => requests.filter((r) => r.path.startsWith(prefix)),
    maxInFlight: () => maxInFlight,
    hugeClosed: () => hugeClosed,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
export type LinkFixture = Awaited<ReturnType<typeof startLinkFixture>>;
