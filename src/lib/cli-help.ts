/** One setting as `--help` lists it (describeConfig in src/config.ts describes them all). */
export interface SettingDescription {
  name: string;
  default: unknown;
  description: string;
}

/**
 * `--help` (or `-h`) on any entry prints its usage and the settings it reads, then exits, instead of
 * starting a service that would bind ports or touch the database.
 */
export function wantsHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

function settingsHelp(settings: readonly SettingDescription[]): string {
  const lines = settings.map(({ name, default: value, description }) => {
    const shown = value === '' || value === undefined ? '(empty)' : String(value);
    return `  ${name} (default ${shown})\n      ${description}`;
  });
  return [
    'Settings (environment variables, or a .env file in the folder it runs in):',
    ...lines,
    'Every setting with its default and meaning: node dist/src/cli.js settings',
  ].join('\n');
}

/** The usage, then the settings of the entry worth knowing first (none: the usage alone). */
export function printHelp(usage: string, settings?: readonly SettingDescription[]): void {
  const text = settings === undefined ? usage : `${usage}\n\n${settingsHelp(settings)}`;
  process.stdout.write(`${text}\n`);
}

function exitWith(code: number): void {
  // Let stdout drain first: process.exit would cut a piped answer short.
  process.stdout.write('', () => process.exit(code));
}

/**
 * Runs a one-shot command (import, migrate, …) and exits with its code: `--help` prints the usage and the
 * settings (exit 0), arguments `parse` refuses print the usage to stderr (exit 2). A failure is printed as
 * `describeFailure` words it, with exit code 1.
 */
export function runCommand<T>(command: {
  usage: string;
  settings: readonly SettingDescription[];
  parse: (args: string[]) => T | null;
  run: (parsed: T) => Promise<number>;
  describeFailure: (error: Error) => string;
}): void {
  const args = process.argv.slice(2);
  const go = async (): Promise<number> => {
    if (wantsHelp(args)) {
      printHelp(command.usage, command.settings);
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
    process.stderr.write(`${command.describeFailure(error instanceof Error ? error : new Error(String(error)))}\n`);
    exitWith(1);
  });
}
