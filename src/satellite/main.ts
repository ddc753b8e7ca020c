import { runPart } from '../bootstrap/process-runner.js';

// `npm run start:satellite`: a resolver area without a database of its own, following an upstream registry area.
const USAGE =
  'Usage: npm run start:satellite   (node dist/src/cli.js satellite; in the Docker image: satellite)\n' +
  'Runs a satellite resolver on RESOLVER_PORT: the resolver area without Postgres or Redis, loading the registry\n' +
  "from SATELLITE_UPSTREAM_URL's dataset and following its change feed, its last snapshot kept in\n" +
  'SATELLITE_SNAPSHOT_DIR; usage counts go to the upstream in batches (SATELLITE_TOKEN).';

// The part's modules are loaded once its arguments and settings are known to be good: `--help` answers without them.
await runPart('satellite', USAGE, async () => (await import('./serve-satellite.js')).startSatellite);
