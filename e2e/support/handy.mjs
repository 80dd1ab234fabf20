// The one way the Node side starts handy for a test or a benchmark: the end-to-end suite (its
// shared server and the tests' own), the data layer's fault test (web/test/sync/faults/, which
// kills it and starts it again on the same port and data directory), and scripts/
// (bench-history, screenshots). On a free loopback port (or the one given), over a fresh
// temporary data directory (or the one given), with the flags and environment it is given; it
// waits until /readyz answers 200, and stop() ends it with SIGTERM and waits for it. Plain
// JavaScript, so that scripts run by plain node can import it; handy.d.mts types it for the
// TypeScript tests. The Go side's twin is internal/handytest.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The repository's root, where `make build` leaves ./handy. */
export const root = join(import.meta.dirname, '../..');

/** A loopback port free right now: the server started on it a moment later fails fast if another took it since. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts handy and waits until it is ready.
 * @param {import('./handy.d.mts').HandyOptions} [options]
 * @returns {Promise<import('./handy.d.mts').Handy>}
 */
export async function startHandy(options = {}) {
  const { bin = join(root, 'handy'), args = [], env = {}, log = 'inherit', readyWithin = 60_000 } = options;
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'handy-test-'));
  const out = log === 'inherit' || log === 'ignore' ? log : openSync(log, 'a');
  // HANDY_* variables of the caller's environment are not passed on: the flags configure it.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('HANDY_')));
  const child = spawn(bin, ['-addr', `127.0.0.1:${port}`, '-public-url', url, '-data-dir', dataDir, ...args], {
    cwd: root,
    env: { ...inherited, ...env },
    stdio: ['ignore', out === 'inherit' ? 'ignore' : out, out],
  });
  // The child has its own copy of the log file's descriptor: a caller that starts it again and
  // again must not collect one per start.
  if (typeof out === 'number') closeSync(out);
  /** @type {Promise<number | null>} */
  const exited = new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  let startError = /** @type {Error | undefined} */ (undefined);
  child.once('error', (err) => (startError = err));
  const running = () => child.exitCode === null && child.signalCode === null && !startError;

  const stop = async (killAfter = 30_000) => {
    if (running()) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), killAfter);
      await exited;
      clearTimeout(timer);
    }
  };
  const close = async (killAfter) => {
    await stop(killAfter);
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const logTail = () => {
    if (log === 'inherit' || log === 'ignore') return '';
    try {
      return readFileSync(log, 'utf8').trimEnd().split('\n').slice(-20).join('\n');
    } catch {
      return '';
    }
  };
  const withLog = () => {
    const tail = logTail();
    return tail && `\n${tail}`;
  };

  // Polls /readyz until it answers 200, the process ends, or readyWithin ms pass.
  const deadline = Date.now() + readyWithin;
  try {
    for (;;) {
      if (startError) throw new Error(`${bin} did not start: ${startError.message} (run make build)`);
      if (!running()) throw new Error(`${bin} exited at start-up (${child.exitCode ?? child.signalCode})${withLog()}`);
      const ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`${url}/readyz did not answer 200 within ${readyWithin / 1000} s${withLog()}`);
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 50))]);
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { url, port, dataDir, process: child, stop, close, logTail };
}
