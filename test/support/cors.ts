import type { RequestListener } from 'node:http';
import request from 'supertest';

/** A browser's CORS preflight: from `origin`, asking to send `method` with the request headers `headers`. */
export const sendPreflight = (app: RequestListener, path: string, origin: string, method: string, headers: string) =>
  request(app).options(path).set('Origin', origin).set('Access-Control-Request-Method', method).set('Access-Control-Request-Headers', headers);
