import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import chromium from '../scripts/tools/chromium.json' with { type: 'json' };

// End-to-end tests drive Debian's Chromium (no downloaded browser) against the real binary.
const port = Number(process.env.E2E_PORT ?? 8391);
export const baseURL = `http://127.0.0.1:${port}`;
/** The operator's token of the test server, for its page-view reports (GET /api/v1/stats). */
export const adminToken = 'e2e-operator-token-0123456789abcdef';
// A throwaway database per run, so that the accounts the tests make never meet real ones. The
// config is also read by each worker: they inherit the directory rather than make their own.
const dataDir = (process.env.HANDY_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'handy-e2e-')));

export default defineConfig({
  testDir: '.',
  outputDir: 'test-results',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  reporter: [['list']],
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
  webServer: {
    // Every test signs up from 127.0.0.1: far more accounts an hour than one network may open.
    command: `./handy -addr 127.0.0.1:${port} -public-url ${baseURL} -data-dir ${dataDir} -admin-token ${adminToken} -signup-limit 100000`,
    cwd: '..',
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
