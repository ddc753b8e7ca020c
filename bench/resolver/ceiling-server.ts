/**
 * The ceiling: the least a Node server can do for a resolve request. A bare node:http server that looks the
 * request path up in a plain Map, built once from the resolver's own answers to the benchmark's paths, and
 * serialises the stored answer object per request, as the service does. It sends the headers every answer
 * of the interface must carry (Content-Type, Content-Length, and X-Content-Type-Options: nosniff, which
 * issue 10 made mandatory): on this 2-core machine the load generator is the bottleneck, and one more
 * header costs it about 14 % of its rate, so a ceiling without it would measure headers, not the service.
 * Run as a child process:
 * `node dist/bench/resolver/ceiling-server.js <answers.json>`; it reports its port over IPC.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { serveBaseline } from '../lib/baseline-server.js';
import type { CheckedAnswer } from '../lib/check-once.js';

interface Stored {
  status: number;
  body: unknown;
}

function main(): void {
  const file = process.argv[2];
  if (!file) throw new Error('usage: ceiling-server.js <answers.json>');
  const answers = new Map<string, Stored>();
  for (const [path, status, body] of JSON.parse(readFileSync(file, 'utf8')) as CheckedAnswer[]) answers.set(path, { status, body });

  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    const stored = answers.get(path);
    const status = stored ? stored.status : 400;
    const text = JSON.stringify(
      stored ? stored.body : { apiVersion: '1.0', errorMessage: `Unknown request '${path.slice(0, 100)}'`, payload: null },
    );
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(text);
  });
  serveBaseline(server, 0, (port) => process.send?.({ type: 'ready', port }));
}

main();
