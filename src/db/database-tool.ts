import { ConfigError, describeConfig, loadConfig } from '../config.js';
import { runCommand } from '../lib/cli-help.js';

/**
 * Runs a one-shot tool on the database named by DATABASE_URL (migrate, import): `--help` lists every
 * setting, a bad setting is printed as loadConfig words it, any other failure as `describeFailure` does.
 */
export function runDatabaseTool<T>(tool: {
  usage: string;
  parse: (args: string[]) => T | null;
  run: (parsed: T, databaseUrl: string) => Promise<number>;
  describeFailure: (error: Error) => string;
}): void {
  runCommand({
    usage: tool.usage,
    settings: describeConfig(),
    parse: tool.parse,
    run: (parsed) => tool.run(parsed, loadConfig().DATABASE_URL),
    describeFailure: (error) => (error instanceof ConfigError ? error.message : tool.describeFailure(error)),
  });
}
