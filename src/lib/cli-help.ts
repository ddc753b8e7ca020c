import { ConfigError, describeConfig } from '../config.js';

/**
 * `--help` (or `-h`) on any entry prints its usage and the settings it reads, then exits, instead of
 * starting a service that would bind ports or touch the database.
 */
export function wantsHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

export function settingsHelp(): string {
  const lines = describeConfig().map(({ name, default: value, description }) => {
    const shown = value === '' || value === undefined ? '(empty)' : String(value);
    return `  ${name} (default ${shown})\n      ${description}`;
  });
  return ['Settings (environment variables):', ...lines].join('\n');
}

export function printHelp(usage: string, options: { settings?: boolean } = {}): void {
  const text = options.settings === false ? usage : `${usage}\n\n${settingsHelp()}`;
  process.stdout.write(`${text}\n`);
}

/**
 * The `.env.example` of the repository, made from the config schema so the two cannot drift (a test
 * compares them): every setting commented out at its default, so a copy changes nothing until edited.
 */
export function envExample(): string {
  const blocks = describeConfig().map(({ name, default: value, description }) => {
    const shown = value === undefined ? '' : String(value);
    return `# ${description}\n# ${name}=${shown}`;
  });
  return [
    '# Every setting of curie-resolver with its default (generated: node dist/src/cli.js settings > .env.example).',
    '# The service reads only the environment: export these, pass them with `node --env-file=.env`, or list',
    '# them under `environment:` / `env_file:` in docker compose.',
    '',
    blocks.join('\n\n'),
    '',
  ].join('\n');
}

function exitWith(code: number): void {
  // Let stdout drain first: process.exit would cut a piped answer short.
  process.stdout.write('', () => process.exit(code));
}

/**
 * Runs a one-shot command (import, migrate, …) and exits with its code: `--help` prints the usage (exit 0),
 * arguments `parse` refuses print it to stderr (exit 2). A bad setting is printed as loadConfig words it;
 * any other failure as `describeFailure` words it, with exit code 1.
 */
export function runCommand<T>(command: {
  usage: string;
  parse: (args: string[]) => T | null;
  run: (parsed: T) => Promise<number>;
  describeFailure: (error: Error) => string;
}): void {
  const args = process.argv.slice(2);
  const go = async (): Promise<number> => {
    if (wantsHelp(args)) {
      printHelp(command.usage);
      return 0;
    }
    const parsed = command.parse(args);
    if (parsed === null) {
      process.stderr.write(`${command.usage}\n`);
      return 2;
    }
    return command.run(parsed);
  };
  go().then(exitWith, (error: unknown) => {
    const message = error instanceof ConfigError ? error.message : command.describeFailure(error instanceof Error ? error : new Error(String(error)));
    process.stderr.write(`${message}\n`);
    exitWith(1);
  });
}
