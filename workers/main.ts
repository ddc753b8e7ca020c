import { runPart } from '../src/bootstrap/process-runner.js';

// `npm run start:worker`: the process that runs every slow or scheduled job, never inside an HTTP request.
const USAGE =
  'Usage: npm run start:worker   (node dist/src/cli.js worker; in the Docker image: worker)\n' +
  'Runs the worker process: URL checks, link checks, dataset builds, usage rollup, notifications, housekeeping. Start as many as needed.';

// The part's modules are loaded once its arguments and settings are known to be good: `--help` answers without them.
await runPart('worker', USAGE, async () => (await import('./serve-worker.js')).startWorker);
