import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import chromium from '../scripts/tools/chromium.json' with { type: 'json' };
import { freePort } from './support/handy.mjs';

// End-to-end tests drive Debian's Chromium (no downloaded browser) against the real binary,
// which support/server.ts starts (support/handy.mjs) before the tests and stops after them.
// The config is also read by each worker: they inherit the port and the directory through the
// environment rather than pick their own. E2E_PORT chooses the port; by default a free one, so
// that suites of several checkouts can run side by side.
const port = Number((process.env.E2E_PORT ??= String(await freePort())));
export const baseURL = `http://127.0.0.1:${port}`;
/** The operator's token of the test server, for its page-view reports (GET /api/v1/stats). */
export const adminToken = 'e2e-operator-token-0123456789abcdef';
/** A throwaway database per run, so that the accounts the tests make never meet real ones. */
export const dataDir = (process.env.HANDY_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'handy-e2e-')));

// One browser per core, as long as each has about 1.5 GB of memory: a worker's Chromium, its
// pages' 24-megapixel images and its share of the server need that. More workers than cores
// only queue on them (the load average rises, every step slows, nothing finishes sooner).
const workers = Math.max(1, Math.min(availableParallelism(), Math.floor(totalmem() / 1.5e9)));

export default defineConfig({
  testDir: '.',
  outputDir: 'test-results',
  fullyParallel: true,
  workers,
  retries: 0,
  // Failure bounds, not durations: every test waits on conditions, so these only decide how long
  // a test that will never pass may hang. They are generous because `make test` must pass while
  // other jobs keep both cores busy, where a step can take several times as long as on an idle
  // machine (an axe scan of a page, a 24-megapixel decode); a test never asserts how long it took.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  globalSetup: './support/server.ts',
  use: {
    baseURL,
    // The service worker changes what reaches the network (and what page.route sees): only the
    // specs about it allow it (offline.spec.ts, pwa.spec.ts), each with a fresh profile.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.CHROME_PATH || chromium.path,
      args: chromium.flags,
    },
  },
});
