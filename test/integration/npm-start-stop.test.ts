import { spawn } from 'node:child_process';
import { startStack, type AreaStack } from '../support/areas.js';
import { descendantsOf, freePort, isRunning, ROOT } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

/**
 * A supervisor (systemd, a process manager, a container runtime) that started `npm start` stops it by
 * sending SIGTERM to the one pid it knows: npm's. The service must stop with it, not keep its ports.
 */
describe('npm start under a supervisor', () => {
  let stack: AreaStack;
  let service: number[] = [];
  beforeAll(async () => {
    stack = await startStack('npm_start_stop');
  });
  afterAll(async () => {
    // Only when the test failed: what SIGTERM left running.
    for (const pid of service.filter(isRunning)) process.kill(pid, 'SIGKILL');
    await stack.close();
  });

  it('stops every process of the service when npm is sent SIGTERM', async () => {
    const [resolverPort, registryPort] = [await freePort(), await freePort()];
    const npm = spawn('npm', ['start'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        DATABASE_URL: stack.url,
        REDIS_URL: stack.config.REDIS_URL,
        QUEUE_PREFIX: stack.config.QUEUE_PREFIX,
        DATASET_DIR: stack.config.DATASET_DIR,
        HOST: '127.0.0.1',
        RESOLVER_PORT: String(resolverPort),
        REGISTRY_PORT: String(registryPort),
        LOG_LEVEL: 'warn',
        USAGE_COUNTING: 'false',
        ROR_API_URL: 'off',
      },
      stdio: 'ignore',
    });
    const npmExited = new Promise((resolve) => npm.once('exit', resolve));
    for (const port of [resolverPort, registryPort]) {
      await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/health/live`)).status === 200, { timeoutMs: 60_000, what: `port ${port} answering` });
    }
    service = descendantsOf(npm.pid!);
    // npm's child (the entry point) and the three parts it runs, at least.
    expect(service.length).toBeGreaterThanOrEqual(4);

    npm.kill('SIGTERM');
    await npmExited;
    await waitFor(() => service.every((pid) => !isRunning(pid)), { timeoutMs: 15_000, what: 'every process of npm start stopping' });
    for (const port of [resolverPort, registryPort]) {
      await expect(fetch(`http://127.0.0.1:${port}/health/live`)).rejects.toThrow();
    }
  }, 90_000);
});
