import { describeConfig } from '../config.js';

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
