import { ConfigError, loadConfig, type Config } from '../config.js';
import { printHelp, wantsHelp, type SettingDescription } from '../lib/cli-help.js';
import { prepareDatabase } from './prepare-database.js';
import { StartupError } from './process-runner.js';

/**
 * The start-up preamble of the commands that run several parts (`npm start`, `npm run start:cluster`):
 * `--help` prints the usage and the settings, any other argument is refused, and a bad setting or an
 * unreachable database ends the process with one readable line instead of a stack trace.
 */
export function failStartup(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** The configuration to start with, or undefined when the caller only asked for help (printed). */
export function startupConfig(
  usage: string,
  settings: readonly SettingDescription[],
  args: readonly string[] = process.argv.slice(2),
): Readonly<Config> | undefined {
  if (wantsHelp(args)) {
    printHelp(usage, settings);
    return undefined;
  }
  if (args.length) failStartup(`unexpected argument ${JSON.stringify(args[0])}\n${usage}`);
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) failStartup(error.message);
    throw error;
  }
}

/** Creates, migrates and (when empty) seeds the database, or ends the process saying what is wrong. */
export async function prepareDatabaseOrFail(config: Readonly<Config>): Promise<void> {
  try {
    await prepareDatabase(config);
  } catch (error) {
    failStartup(error instanceof StartupError ? error.message : `Start failed: ${(error as Error).stack ?? String(error)}`);
  }
}
