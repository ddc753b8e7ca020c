import { runPart } from '../bootstrap/process-runner.js';

// `npm run start:resolver`: the resolver area alone, for operators who scale it separately.
const USAGE =
  'Usage: npm run start:resolver   (node dist/src/cli.js resolver; in the Docker image: resolver)\n' +
  'Runs the resolver area alone (resolution, redirects, reverse lookup) on RESOLVER_PORT.';

// The part's modules are loaded once its arguments and settings are known to be good: `--help` answers without them.
await runPart('resolver', USAGE, async () => (await import('./serve-resolver.js')).startResolver);
