/**
 * The probe of the hostile benchmark, in a process of its own (started by probe-client.ts as
 * `node dist/bench/hostile/probe.js` with an IPC channel): what an ordinary client sees while a route is
 * attacked. It sends each target's cheap request at a steady rate (open loop: the next request leaves on
 * time whether or not the last one was answered, so a blocked server shows as long answers, not as fewer
 * samples), from addresses none of the attackers use, and keeps every answer's time.
 *
 * IPC: it is sent a ProbePlan first and answers {type: 'ready'} once every target answered; then each
 * {type: 'window', id, from, to} (epoch ms) is answered with the figures of the requests sent in that span;
 * {type: 'stop'} ends it.
 */
import http from 'node:http';

export interface ProbeTarget {
  name: string;
  port: number;
  /** GET paths, sent in turn. */
  paths: string[];
  perSecond: number;
  /** Local addresses, used in turn, so that the probe stays under the area's per-address rate limit. */
  addresses: string[];
}

export interface ProbePlan {
  type: 'plan';
  targets: ProbeTarget[];
}

export interface ProbeFigures {
  requests: number;
  /** Still unanswered when the window was read: counted with the time they had waited so far. */
  unanswered: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  statuses: Record<string, number>;
}

export type ProbeWindowAnswer = { type: 'window'; id: number; figures: Record<string, ProbeFigures> };

interface Sample {
  /** When it was sent, epoch ms. */
  at: number;
  ms: number | null;
  status: string | null;
}

// Samples older than this are dropped: a window is read right after it ends.
const KEEP_MS = 10 * 60_000;
const TIMEOUT_MS = 60_000;

const epochNow = () => performance.timeOrigin + performance.now();

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]! * 100) / 100;
}

class TargetProbe {
  readonly samples: Sample[] = [];
  private readonly agents: http.Agent[];
  private sent = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(readonly target: ProbeTarget) {
    this.agents = target.addresses.map((localAddress) => new http.Agent({ keepAlive: true, maxSockets: 32, localAddress }));
  }

  private get(agent: http.Agent, path: string): Promise<{ ms: number; status: string }> {
    return new Promise((resolve) => {
      const started = performance.now();
      const done = (status: string) => resolve({ ms: performance.now() - started, status });
      const req = http.request({ host: '127.0.0.1', port: this.target.port, method: 'GET', path, headers: { Accept: 'application/json' }, agent }, (res) => {
        res.resume();
        res.on('end', () => done(String(res.statusCode ?? 0)));
        res.on('error', () => done('failed'));
      });
      req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error('timeout')));
      req.on('error', () => done('failed'));
      req.end();
    });
  }

  /** One request, recorded. */
  fire(): Promise<string> {
    const n = this.sent++;
    const sample: Sample = { at: epochNow(), ms: null, status: null };
    this.samples.push(sample);
    const agent = this.agents[n % this.agents.length]!;
    return this.get(agent, this.target.paths[n % this.target.paths.length]!).then(({ ms, status }) => {
      sample.ms = ms;
      sample.status = status;
      return status;
    });
  }

  start(): void {
    const gapMs = 1000 / this.target.perSecond;
    let due = performance.now();
    // A fine tick, so that the requests leave on their schedule; all that are due leave at once.
    this.timer = setInterval(() => {
      const now = performance.now();
      while (due <= now) {
        void this.fire();
        due += gapMs;
      }
      const old = epochNow() - KEEP_MS;
      while (this.samples.length > 0 && this.samples[0]!.at < old) this.samples.shift();
    }, Math.max(1, Math.min(5, gapMs / 2)));
  }

  window(from: number, to: number): ProbeFigures {
    const now = epochNow();
    const times: number[] = [];
    const statuses: Record<string, number> = {};
    let unanswered = 0;
    for (const sample of this.samples) {
      if (sample.at < from || sample.at > to) continue;
      if (sample.ms === null) {
        unanswered++;
        times.push(now - sample.at);
      } else {
        times.push(sample.ms);
        statuses[sample.status!] = (statuses[sample.status!] ?? 0) + 1;
      }
    }
    times.sort((a, b) => a - b);
    return { requests: times.length, unanswered, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), maxMs: percentile(times, 100), statuses };
  }

  stop(): void {
    clearInterval(this.timer);
    for (const agent of this.agents) agent.destroy();
  }
}

function run(plan: ProbePlan): void {
  const probes = plan.targets.map((target) => new TargetProbe(target));
  process.on('message', (message: { type?: string; id?: number; from?: number; to?: number }) => {
    if (message.type === 'window') {
      const figures = Object.fromEntries(probes.map((p) => [p.target.name, p.window(message.from!, message.to!)]));
      process.send!({ type: 'window', id: message.id!, figures } satisfies ProbeWindowAnswer);
    } else if (message.type === 'stop') {
      for (const probe of probes) probe.stop();
      process.exit(0);
    }
  });
  // Every target answers once before the steady rate starts: the connections are open and the paths warm.
  void Promise.all(probes.map((p) => p.fire())).then((statuses) => {
    for (const probe of probes) probe.samples.length = 0;
    for (const probe of probes) probe.start();
    process.send!({ type: 'ready', statuses });
  });
}

if (!process.send) {
  process.stderr.write('started by bench/hostile/probe-client.ts with an IPC channel\n');
  process.exit(2);
}
// The parent going away ends the probe too.
process.on('disconnect', () => process.exit(0));
process.once('message', (plan: ProbePlan) => run(plan));
