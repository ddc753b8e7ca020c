/**
 * The same-run baseline: the least a Koa server of this project does for a validator request. Koa and
 * @koa/router with the project's own JSON body reader (src/http/json-body.ts) on the same POST paths, and
 * the fixed VALIDATION OK answer of the area, whatever the payload: no envelope reading, no rules, no
 * registry, none of the service's middleware (request ids, logging, CORS, the error translator). Run as a
 * child process by startNodeService: `BASELINE_PORT=<port> node dist/bench/registration/baseline-server.js`,
 * ready when GET /health/ready answers ok, stopped by SIGTERM or when its parent goes.
 */
import http from 'node:http';
import { Router } from '@koa/router';
import Koa from 'koa';
import { jsonBody } from '../../src/http/json-body.js';
import { serveBaseline } from '../lib/baseline-server.js';
import { validationOkJson } from '../../src/registry/registration/validation/validation.presenter.js';
import { classifyEndpoints } from './endpoint-classes.js';

const READY = JSON.stringify({ apiVersion: '1.0', errorMessage: null, payload: { status: 'ok' } });

function main(): void {
  const port = Number(process.env.BASELINE_PORT);
  if (!Number.isInteger(port) || port <= 0) throw new Error('BASELINE_PORT must name the port to listen on');

  const router = new Router();
  const readBody = jsonBody();
  for (const endpoint of classifyEndpoints()) {
    const answer = validationOkJson(endpoint.kind);
    router.post(endpoint.path, readBody, (ctx) => {
      ctx.type = 'application/json';
      ctx.body = answer;
    });
  }
  router.get('/health/ready', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = READY;
  });
  const app = new Koa();
  app.use(router.routes());

  serveBaseline(http.createServer(app.callback()), port);
}

main();
