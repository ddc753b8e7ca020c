// The deployment files say what deploy/README.md promises: the balancer's health checks and retries, the
// Kubernetes probes on the health endpoints, and docker compose using the same HAProxy configuration.
import { readFileSync } from 'node:fs';
import path from 'node:path';
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
