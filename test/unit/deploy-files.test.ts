// The deployment files say what deploy/README.md promises: the balancer's health checks and retries, the
// Kubernetes probes on the health endpoints, docker compose using the same HAProxy configuration; and the
// compose cluster profile, the Kubernetes manifests and deploy/README.md give the same settings.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { configKeys, loadConfig } from '../../src/config.js';
import { ROOT } from '../support/processes.js';

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe('deploy/', () => {
  it('HAProxy checks /health/ready and retries failed GETs on another instance, never other methods', () => {
    const cfg = read('deploy/haproxy/haproxy.cfg');
    for (const backend of ['resolvers', 'registries']) {
      const block = cfg.split(/\n(?=backend )/).find((b) => b.startsWith(`backend ${backend}\n`)) ?? '';
      expect(block).toContain('http-check send meth GET uri /health/ready');
      expect(block).toMatch(/http-request disable-l7-retry if !METH_GET/);
      expect(block.match(/^ {4}server \S+ "\$\{CURIE_[A-Z]+_\d\}" check$/gm)).toHaveLength(2);
    }
    expect(cfg).toMatch(/^ {4}retry-on conn-failure empty-response /m);
    expect(cfg).toMatch(/^ {4}option redispatch 1$/m);
  });

  it.each(['resolver', 'registry'])('the %s Deployment has liveness on /health/live and readiness on /health/ready', (part) => {
    const manifest = read(`deploy/kubernetes/${part}.yaml`);
    expect(manifest).toMatch(/livenessProbe:\n\s+httpGet: \{ path: \/health\/live, port: http \}/);
    expect(manifest).toMatch(/readinessProbe:\n\s+httpGet: \{ path: \/health\/ready, port: http \}/);
    expect(manifest).toContain(`args: ["${part}"]`);
  });

  it('docker compose runs the cluster profile behind the same HAProxy configuration', () => {
    const compose = read('docker-compose.yml');
    expect(compose).toContain('./deploy/haproxy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
    for (const variable of ['CURIE_RESOLVER_BIND', 'CURIE_REGISTRY_BIND', 'CURIE_RESOLVER_1', 'CURIE_RESOLVER_2', 'CURIE_REGISTRY_1', 'CURIE_REGISTRY_2']) {
      expect(compose).toContain(`${variable}:`);
      expect(read('deploy/haproxy/haproxy.cfg')).toContain(`"\${${variable}}"`);
    }
  });
});

/**
 * The `NAME: value` settings indented under the first line matching `heading` (a ConfigMap's `data:`, a
 * compose `environment:`), quotes taken off. The files are ours and plain, so no YAML parser is needed.
 */
function settingsUnder(text: string, heading: RegExp): Record<string, string> {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => heading.test(line));
  if (start < 0) throw new Error(`no ${heading} in the file`);
  const indent = lines[start]!.search(/\S/);
  const settings: Record<string, string> = {};
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (line.search(/\S/) <= indent) break;
    const [, name, value] = /^\s+([A-Z][A-Z0-9_]*): (.*)$/.exec(line) ?? [];
    if (name !== undefined) settings[name] = value!.replace(/^"(.*)"$/, '$1');
  }
  return settings;
}

/** The YAML document of `kind` in a file of several (`---` between them). */
function documentOfKind(file: string, kind: string): string {
  const found = read(file)
    .split(/^---$/m)
    .find((doc) => new RegExp(`^kind: ${kind}$`, 'm').test(doc));
  if (found === undefined) throw new Error(`no ${kind} in ${file}`);
  return found;
}

/** A Deployment's own `env:` entries (`- { name: HOST, value: "0.0.0.0" }`). */
function deploymentEnv(file: string): Record<string, string> {
  const entries = [...read(file).matchAll(/- \{ name: ([A-Z][A-Z0-9_]*), value: "([^"]*)" \}/g)];
  return Object.fromEntries(entries.map(([, name, value]) => [name!, value!]));
}

const configMap = () => settingsUnder(documentOfKind('deploy/kubernetes/config.yaml', 'ConfigMap'), /^data:$/);
const secret = () => settingsUnder(documentOfKind('deploy/kubernetes/config.yaml', 'Secret'), /^stringData:$/);
const composeClusterEnv = () => settingsUnder(read('docker-compose.yml').split(/^services:$/m)[0]!, /^ {2}environment:$/);
const kubernetesSection = () => /## On Kubernetes\n([\s\S]*?)\n## /.exec(read('deploy/README.md'))?.[1] ?? '';

describe('deploy/ and docker-compose.yml agree', () => {
  it('every resolver behind a balancer believes only the X-Forwarded-For entry the balancer appends (TRUST_PROXY=1)', () => {
    // HAProxy's `option forwardfor` and an ingress controller append the peer's address: with `true` the
    // left-most entry, written by the client itself, would name the client for rate limits and usage counts.
    expect(read('deploy/haproxy/haproxy.cfg')).toMatch(/^ {4}option forwardfor$/m);
    expect(composeClusterEnv().TRUST_PROXY).toBe('1');
    expect(configMap().TRUST_PROXY).toBe('1');
    expect(read('deploy/README.md')).toContain('`TRUST_PROXY=1`');
  });

  it('RESOLVER_INSTANCES is the number of resolvers sharing the traffic, in compose and on Kubernetes', () => {
    const compose = read('docker-compose.yml');
    const composeResolvers = compose.match(/^ {2}resolver-\d+: \{ <<: \*cluster-part, command: \["resolver"\] \}$/gm) ?? [];
    expect(composeResolvers).toHaveLength(2);
    expect(composeClusterEnv().RESOLVER_INSTANCES).toBe(String(composeResolvers.length));
    const replicas = /^ {2}replicas: (\d+)$/m.exec(read('deploy/kubernetes/resolver.yaml'))?.[1];
    expect(configMap().RESOLVER_INSTANCES).toBe(replicas);
  });

  it('the Kubernetes settings run the link checks, as the README asks of production', () => {
    expect(read('README.md')).toContain('set `LINKCHECK_ENABLED=true` in production');
    expect(configMap().LINKCHECK_ENABLED).toBe('true');
  });

  it('METRICS_TOKEN is in the Secret, not the ConfigMap, and the README names every key of the Secret', () => {
    expect(secret()).toHaveProperty('METRICS_TOKEN');
    expect(configMap()).not.toHaveProperty('METRICS_TOKEN');
    const secretRow = /^\| `config\.yaml` \|(.*)$/m.exec(kubernetesSection())?.[1] ?? '';
    for (const name of Object.keys(secret())) expect(secretRow).toContain(`\`${name}\``);
  });

  it('DATABASE_READ_URL, optional, is left empty in the Secret (every read then goes to DATABASE_URL)', () => {
    expect(secret().DATABASE_READ_URL ?? '').toBe('');
  });

  it.each([
    ['resolver', 'RESOLVER_METRICS_PORT'],
    ['registry', 'REGISTRY_METRICS_PORT'],
    ['worker', 'WORKER_METRICS_PORT'],
  ])('the %s Deployment serves /metrics on a container port of its own (%s), which its Service does not publish', (part, setting) => {
    const port = deploymentEnv(`deploy/kubernetes/${part}.yaml`)[setting];
    expect(port).toMatch(/^[1-9]\d*$/);
    const manifest = read(`deploy/kubernetes/${part}.yaml`);
    expect(manifest).toContain(`- { name: metrics, containerPort: ${port} }`);
    // What the Service publishes the ingress may route: only the area's own port.
    const service = manifest.split(/^---$/m).find((doc) => /^kind: Service$/m.test(doc)) ?? '';
    expect(service).not.toMatch(/metrics/);
  });

  it('every setting the Kubernetes manifests and the compose cluster profile give is one the service knows', () => {
    const given = {
      ...configMap(),
      ...secret(),
      ...composeClusterEnv(),
      ...Object.assign({}, ...['resolver', 'registry', 'worker'].map((part) => deploymentEnv(`deploy/kubernetes/${part}.yaml`))),
    } as Record<string, string>;
    expect(Object.keys(given).filter((name) => !(configKeys as string[]).includes(name))).toEqual([]);
    // And every value passes the check the service makes at start.
    for (const part of ['resolver', 'registry', 'worker']) {
      expect(() => loadConfig({ ...configMap(), ...secret(), ...deploymentEnv(`deploy/kubernetes/${part}.yaml`) })).not.toThrow();
    }
    expect(() => loadConfig(composeClusterEnv())).not.toThrow();
  });

  it('deploy/README says how to load the registry on Kubernetes, with a Job running the image’s import command', () => {
    // The image's entrypoint is the CLI: a Job gives the command as args, as migrate-job.yaml does.
    expect(read('Dockerfile')).toContain('ENTRYPOINT ["node", "dist/src/cli.js"]');
    const job = documentOfKind('deploy/kubernetes/import-job.yaml', 'Job');
    expect(job).toMatch(/^ +args: \["import", "https:\/\/[^"]+\/getResolverDataset"\]$/m);
    expect(job).not.toMatch(/^ +command:/m);
    const section = kubernetesSection();
    expect(section).toContain('kubectl apply -f deploy/kubernetes/import-job.yaml');
    // A file of one's own, through a running pod (no entrypoint there: the CLI is named).
    expect(section).toMatch(/kubectl exec [^\n]*node dist\/src\/cli\.js import /);
    // Every manifest is in the section's table.
    for (const file of readdirSync(path.join(ROOT, 'deploy/kubernetes'))) expect(section).toContain(`| \`${file}\` |`);
  });
});
