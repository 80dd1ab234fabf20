import { defineConfig } from '@playwright/test';
import chromium from '../scripts/chromium.json' with { type: 'json' };

// End-to-end tests drive Debian's Chromium (no downloaded browser) against the real binary.
const port = Number(process.env.E2E_PORT ?? 8391);
export const baseURL = `http://127.0.0.1:${port}`;

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
    launchOptions: {
      executablePath: process.env.CHROME_PATH || chromium.path,
      args: chromium.flags,
    },
  },
  webServer: {
    command: `./handy -addr 127.0.0.1:${port} -public-url ${baseURL}`,
    cwd: '..',
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
