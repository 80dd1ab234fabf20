// The data layer against the real server, under faults (scenario.ts): for each seed, every
// acknowledged write reaches the server exactly once, and both devices end with the server's
// documents, which are the reference model's. `make test` runs a few seeds; `make soak` runs
// SEEDS=1-1000; SEED=n runs one again. It builds and starts cmd/handy, which needs the front end
// built (`make build`).
import 'fake-indexeddb/auto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { runSeed } from './scenario';
import { Handy, buildHandy } from './server';

/** "3", "1-1000" or "4,17,42". */
function parseSeeds(spec: string): number[] {
  return spec.split(',').flatMap((part) => {
    const [from, to = from] = part.split('-').map(Number);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

const seeds = parseSeeds(process.env.SEED ?? process.env.SEEDS ?? '1-3');

let dir: string;
let server: Handy;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'handy-faults-'));
  server = await Handy.start(await buildHandy(dir), path.join(dir, 'data'), path.join(dir, 'handy.log'));
}, 300_000);
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

// The seeds share one server (a fresh account each), and run a few at a time: a server kill
// that one seed's script asks for is one that the others live through too, and the server's
// seconds-long start-up is paid once for all of them.
describe.concurrent('the data layer against the real server, under faults', () => {
  it.for(seeds)('seed %i', { timeout: 300_000 }, async (seed, { expect }) => {
    const outcome = await runSeed(seed, server);
    console.log(outcome.summary);
    try {
      expect(outcome.problems).toEqual([]);
      expect(outcome.server, 'the server against the model').toEqual(outcome.model);
      for (const [id, docs] of Object.entries(outcome.devices)) expect(docs, `device ${id} against the server`).toEqual(outcome.server);
    } catch (e) {
      if (e instanceof Error) e.message = `seed ${seed} (run it again: SEED=${seed} npx vitest run --config web/vite.config.ts web/test/sync/faults)\n${e.message}`;
      throw e;
    }
  });
});
