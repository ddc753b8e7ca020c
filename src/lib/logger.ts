import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON logs to stdout; `name` tells the areas and the worker apart when they share a terminal. */
export function createLogger(level: string, name: string): Logger {
  return pino({ level, name, base: { pid: process.pid } });
}
