// The parts of autocannon 9's programmatic API the benchmark uses (the package ships no types); see
// node_modules/autocannon/README.md, "API".
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, unknown>) => void;
    }

    interface Client extends EventEmitter {
      setRequests(requests: Request[]): void;
    }

    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      /** Seconds before a request counts as timed out (default 10). */
      timeout?: number;
      requests?: Request[];
      setupClient?: (client: Client) => void;
    }

    /** hdr-histogram-percentiles-obj: latency in ms, requests in req/s sampled each second. */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p2_5: number;
      p50: number;
      p75: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
    }

    interface Result {
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      duration: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      statusCodeStats: Record<string, { count: number }>;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
      start: Date;
      finish: Date;
    }
  }

  /** Emits `response` (client, statusCode, resBytes, responseTime in ms) for every answer. */
  function autocannon(options: autocannon.Options): PromiseLike<autocannon.Result> & EventEmitter;
  export = autocannon;
}
