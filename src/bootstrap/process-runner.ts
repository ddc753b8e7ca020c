import { ConfigError, loadConfig, type Config } from '../config.js';
import { printHelp, wantsHelp } from '../lib/cli-help.js';
import { createLogger, type Logger } from '../lib/logger.js';
import type { PartKind } from './child-part.js';
import { partSettings } from './part-settings.js';

export interface StartedPart {
  /** Printed once started, e.g. the address an area listens on. */
  description: string;
  /** Ordered shutdown of what the part opened (HTTP first, then workers, queues, knex, Redis). */
  stop: () => Promise<void>;
}

/** Starts a part from its settings; what the part's serve module exports. */
export type PartStarter = (config: Readonly<Config>, logger: Logger) => Promise<StartedPart>;

/** A clear, expected start-up failure: printed as is, without a stack trace. */
export class StartupError extends Error {
  override name = 'StartupError';
}

/**
 * Runs one process of the service (an HTTP area or the worker): reads the config, starts the part, and
 * stops it in order on SIGINT/SIGTERM with a force-exit timer. When started by `npm start` (with an IPC
 * channel) it reports readiness to the parent. `--help` prints `usage` and the settings instead; any other
 * argument is refused, since a part takes its whole configuration from the environment.
 *
 * `load` imports the part's modules (its serve-*.js, by a dynamic import), once the arguments and the
 * settings are known to be good: loading a whole area takes a couple of seconds of CPU, which `--help`, a
 * wrong argument or a bad setting need not wait for.
 */
export async function runPart(name: PartKind, usage: string, load: () => Promise<PartStarter>): Promise<void> {
  const args = process.argv.slice(2);
  if (wantsHelp(args)) {
    printHelp(usage, partSettings([name]));
    process.exit(0);
  }
  if (args.length) {
    process.stderr.write(`${name}: unexpected argument ${JSON.stringify(args[0])}\n${usage}\n`);
    process.exit(2);
  }
  let config: Readonly<Config>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${name}: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL, name);
  let started: StartedPart;
  try {
    const start = await load();
    started = await start(config, logger);
  } catch (error) {
    if (error instanceof StartupError) process.stderr.write(`${name}: ${error.message}\n`);
    else logger.fatal({ err: error }, 'start failed');
    process.exit(1);
  }
  logger.info(`${name} started: ${started.description}`);
  if (process.send) process.send({ type: 'ready', name, description: started.description });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${name} stopping`);
    const force = setTimeout(() => {
      logger.error(`${name} did not stop within ${config.SHUTDOWN_TIMEOUT_MS} ms; forcing exit`);
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    try {
      await started.stop();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, `${name} failed to stop cleanly`);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // The parent (npm start) going away must not leave an orphan serving a port.
  process.on('disconnect', () => void stop('parent exited'));
}
