import { describeSettings, type ConfigKey } from '../config.js';
import type { SettingDescription } from '../lib/cli-help.js';
import type { PartKind } from './child-part.js';

/**
 * The settings a part's `--help` lists: where it listens, what it connects to, and the few a deployment must
 * decide. Each part reads more (limits, timeouts, intervals), which `node dist/src/cli.js settings` lists with
 * every other one: all ~76 after the usage scrolled the usage off the screen.
 */
const PART_SETTINGS: Record<PartKind, readonly ConfigKey[]> = {
  resolver: ['DATABASE_URL', 'REDIS_URL', 'HOST', 'RESOLVER_PORT', 'PUBLIC_RESOLVER_URL', 'PUBLIC_REGISTRY_URL', 'TRUST_PROXY', 'LOG_LEVEL'],
  registry: [
    'DATABASE_URL', 'REDIS_URL', 'HOST', 'REGISTRY_PORT', 'PUBLIC_RESOLVER_URL', 'PUBLIC_REGISTRY_URL', 'TRUST_PROXY',
    'QUEUE_PREFIX', 'DATASET_DIR', 'CURATOR_TOKEN', 'LOG_LEVEL',
  ],
  worker: ['DATABASE_URL', 'REDIS_URL', 'QUEUE_PREFIX', 'DATASET_DIR', 'LINKCHECK_ENABLED', 'SMTP_URL', 'LOG_LEVEL'],
  satellite: [
    'HOST', 'RESOLVER_PORT', 'PUBLIC_RESOLVER_URL', 'PUBLIC_REGISTRY_URL', 'TRUST_PROXY', 'SATELLITE_UPSTREAM_URL', 'SATELLITE_TOKEN',
    'SATELLITE_POLL_INTERVAL_MS', 'SATELLITE_SNAPSHOT_DIR', 'LOG_LEVEL',
  ],
};

/** The settings `--help` lists for a command that runs `parts`, and `more` of its own; in the schema's order. */
export function partSettings(parts: readonly PartKind[], more: readonly ConfigKey[] = []): SettingDescription[] {
  return describeSettings([...parts.flatMap((part) => PART_SETTINGS[part]), ...more]);
}
