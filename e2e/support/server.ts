// The suite's shared server (Playwright's globalSetup): handy on the port and data directory the
// config chose, stopped (SIGTERM, then waited for) when every test has run.
import { adminToken, dataDir } from '../playwright.config';
import { startHandy } from './handy.mjs';

export default async function startSharedServer(): Promise<() => Promise<void>> {
  const handy = await startHandy({
    port: Number(process.env.E2E_PORT),
    dataDir,
    // Every test signs up from 127.0.0.1: far more accounts an hour than one network may open.
    args: ['-admin-token', adminToken, '-signup-limit', '100000'],
    readyWithin: 30_000,
  });
  return () => handy.stop();
}
