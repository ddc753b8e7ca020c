/**
 * The event-loop delay of an area under the hostile benchmark, as its preloaded loop-monitor.ts measures it.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { NodeServiceProcess } from '../lib/server-processes.js';
import { askChild } from './ipc-request.js';
import type { LoopReading } from './loop-reading.js';

/** The node flags that preload the monitor into a service started by startNodeService. */
export function loopMonitorFlags(projectRoot: string): string[] {
  return ['--import', pathToFileURL(path.join(projectRoot, 'dist/bench/hostile/loop-monitor.js')).href];
}

/** The delays since the last reading (and starts the next one). A blocked area answers once it is free. */
export function readLoopDelay(service: NodeServiceProcess, timeoutMs = 120_000): Promise<LoopReading> {
  return askChild<LoopReading>(service.child, { type: 'hostile:loop-read' }, 'hostile:loop', timeoutMs);
}
