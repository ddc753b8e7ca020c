import { runPart } from '../bootstrap/process-runner.js';

// `npm run start:registry`: the registry area alone, for operators who scale it separately.
const USAGE =
  'Usage: npm run start:registry   (node dist/src/cli.js registry; in the Docker image: registry)\n' +
  'Runs the registry area alone (browse, dataset, registration, curation, statistics) on REGISTRY_PORT.';

// The part's modules are loaded once its arguments and settings are known to be good: `--help` answers without them.
await runPart('registry', USAGE, async () => (await import('./serve-registry.js')).startRegistry);
