import { readFileSync } from 'node:fs';
import { loadConfig } from './config.js';

/**
 * The container's HEALTHCHECK (`node dist/src/cli.js healthcheck [command]`): asks the areas the
 * container runs for /health/live on 127.0.0.1. Which areas those are follows from the command the
 * container was started with, read from PID 1's command line when not given; the worker and one-shot
 * commands have no HTTP listener, so for them a live process is all there is to check. The cluster's
 * balancer listens on the two areas' ports and passes /health/live on to an instance behind it.
 */
const AREAS_BY_COMMAND: Record<string, ('RESOLVER_PORT' | 'REGISTRY_PORT')[]> = {
  start: ['RESOLVER_PORT', 'REGISTRY_PORT'],
  cluster: ['RESOLVER_PORT', 'REGISTRY_PORT'],
  resolver: ['RESOLVER_PORT'],
  satellite: ['RESOLVER_PORT'],
  registry: ['REGISTRY_PORT'],
};

export const HEALTHCHECK_USAGE = [
  "Usage: node dist/src/cli.js healthcheck [command]   (the image's HEALTHCHECK)",
  'Exits 0 when the HTTP areas that <command> runs answer /health/live on 127.0.0.1 (start and cluster:',
  'RESOLVER_PORT and REGISTRY_PORT; resolver and satellite; registry), 1 naming the one that does not. The worker and the',
  'one-shot commands listen on nothing: a running process is healthy. Without a command, the one the',
  "container runs (PID 1's command line; start when it names none).",
].join('\n');

export function containerCommand(): string {
  try {
    const argv = readFileSync('/proc/1/cmdline', 'utf8').split('\0');
    const at = argv.findIndex((arg) => arg.endsWith('cli.js'));
    if (at >= 0) return argv[at + 1] || 'start';
  } catch {
    // not Linux, or /proc is not mounted: fall through to the default command
  }
  return 'start';
}

export async function checkHealth(command: string): Promise<string[]> {
  const config = loadConfig();
  const problems: string[] = [];
  for (const port of AREAS_BY_COMMAND[command] ?? []) {
    const url = `http://127.0.0.1:${config[port]}/health/live`;
    try {
      const answer = await fetch(url, { signal: AbortSignal.timeout(3000) });
      if (answer.status !== 200) problems.push(`${url} answered ${answer.status}`);
    } catch (error) {
      problems.push(`${url}: ${(error as Error).message}`);
    }
  }
  return problems;
}
