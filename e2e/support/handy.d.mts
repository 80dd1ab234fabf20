// Types of handy.mjs, for the TypeScript tests.
import type { ChildProcess } from 'node:child_process';

export interface HandyOptions {
  /** The binary: the repository's ./handy by default. */
  bin?: string;
  /** Flags besides -addr, -public-url and -data-dir, which it sets. */
  args?: string[];
  /** Added to the environment (HANDY_* variables of the caller's are never passed on). */
  env?: Record<string, string>;
  /** The port: a free one by default. */
  port?: number;
  /** The data directory: a fresh temporary one by default, removed by close(). */
  dataDir?: string;
  /** Its stderr: 'inherit' (the default; stdout ignored), 'ignore', or a file both go to. */
  log?: 'inherit' | 'ignore' | string;
  /** How long to wait for /readyz, in ms (60 s by default). */
  readyWithin?: number;
}

export interface Handy {
  /** Its origin, http://127.0.0.1:port. */
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  /** SIGTERM, then waits for it to exit (SIGKILL after killAfter ms, 30 s by default). */
  stop: (killAfter?: number) => Promise<void>;
  /** Stops it if it runs, and removes the data directory it made. */
  close: (killAfter?: number) => Promise<void>;
  /** The last 20 lines of its log file ('' unless `log` named a file), for error messages. */
  logTail: () => string;
}

export const root: string;
export function freePort(): Promise<number>;
export function startHandy(options?: HandyOptions): Promise<Handy>;
