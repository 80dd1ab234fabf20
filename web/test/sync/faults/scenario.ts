// One seed of the fault test: two devices of one account, three tab slots each, and a script
// drawn from the seed (history entries saved and deleted, preferences edited, the profile
// changed elsewhere through the account API, devices going offline and online, tabs opened,
// closed and killed, the server killed), run against the real server while the tabs sync in
// the background. Then everything comes back online and settles, and the outcome is returned
// for the test to check. The script is the seed's; how it interleaves with the syncing is not
// (real sockets and a real process), so a seed that fails may need a few runs to fail again.
import { isDeepStrictEqual } from 'node:util';
import { fromFields, toFields, type Fields, type Plain } from '../../../src/sync/values';
import type { Write } from '../../../src/sync/writes';
import { Device, TABS } from './device';
import { expected, placeBatches, type Applied } from './model';
import { Network } from './network';
import { seeded, type Random } from './random';
import type { Handy } from './server';

/** What the test checks. Documents are decoded (a timestamp the client wrote with .000 is the
 * server's without it), by path. */
export interface Outcome {
  summary: string;
  /** Writes lost, applied twice, refused or mis-carried (model.ts). */
  problems: string[];
  server: Docs;
  model: Docs;
  /** Each device's copy, as a tab reads it, once it caught up (or when waiting gave up). */
  devices: Record<string, Docs>;
}

export type Docs = Record<string, { [key: string]: Plain }>;

const ops = [
  ...Array<'save'>(30).fill('save'),
  ...Array<'delete'>(15).fill('delete'),
  ...Array<'prefs'>(12).fill('prefs'),
  ...Array<'network'>(10).fill('network'),
  ...Array<'kill'>(6).fill('kill'),
  ...Array<'close'>(3).fill('close'),
  ...Array<'open'>(8).fill('open'),
  ...Array<'pause'>(8).fill('pause'),
  ...Array<'profile'>(3).fill('profile'),
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runSeed(seed: number, server: Handy): Promise<Outcome> {
  const began = Date.now();
  const r = seeded(seed);
  const script = r.fork();
  const account = await server.signUp(`fault-${seed}-${began}@example.com`);
  const profilePath = `users/${account.uid}`;
  const initial = await server.documents(account);
  const devices = ['A', 'B'].map((id) => {
    const net = new Network(r.fork(), { drop: r.pick([0, 0.2, 0.5]), fail: r.pick([0, 0.05, 0.15]) });
    return new Device(id, `faults-${seed}-${began}-${id}`, net, server, account);
  });

  const entries: string[] = [];
  const save = (d: Device, step: number, k: number): Write => {
    const id = `${d.id}${step}-${k}`;
    entries.push(id);
    const at = new Date(Date.UTC(2026, 10, 23) + step * 1000 + script.int(0, 999));
    return { kind: 'set', path: `${profilePath}/history/${id}`, fields: toFields({ tool: 'area', at, title: `entry ${id}`, query: `?s=${step}`, detail: '' }) };
  };
  const remove = (): Write => ({ kind: 'delete', path: `${profilePath}/history/${script.pick(entries)}` });
  let displayName: string | undefined;
  let profileEdits = Promise.resolve();
  const steps = script.int(40, 70);
  const serverKills = new Set([script.int(0, steps - 1), ...(script.chance(0.3) ? [script.int(0, steps - 1)] : [])]);

  try {
    for (let step = 0; step < steps; step++) {
      if (serverKills.has(step)) server.kill();
      const d = script.pick(devices);
      const slot = script.int(0, TABS - 1);
      switch (script.pick(ops)) {
        case 'save':
          await d.write(slot, Array.from({ length: script.int(1, 3) }, (_, k) => save(d, step, k)));
          break;
        case 'delete':
          // Any entry, also one this device has not heard of yet, or one already deleted.
          if (entries.length > 0) await d.write(slot, [remove(), ...(script.chance(0.3) ? [save(d, step, 0)] : [])]);
          break;
        case 'prefs':
          await d.write(slot, [preferences(script, profilePath, `${d.id}${step}`)]);
          break;
        case 'network':
          d.setOnline(!d.net.isOnline);
          break;
        case 'kill':
          d.kill(slot);
          break;
        case 'close':
          await d.close(slot);
          break;
        case 'open':
          await d.open(slot);
          break;
        case 'pause':
          await sleep(script.int(20, 300));
          break;
        case 'profile': {
          // The account page of a third device: PATCH /auth/me merges into users/{uid} on the
          // server, outside the data layer. In the background, one after the other.
          const name = `Name ${step}`;
          displayName = name;
          profileEdits = profileEdits.then(() => patchName(server, account.token, name));
          break;
        }
      }
      await sleep(script.int(0, 20));
    }

    // Everything back: no more faults, every tab open, the server up.
    for (const d of devices) {
      d.net.rates = { drop: 0, fail: 0 };
      d.setOnline(true);
      for (let slot = 0; slot < TABS; slot++) await d.open(slot);
    }
    await profileEdits;
    await server.ready();
    const problems: string[] = [];
    const clients = devices.flatMap((d) => d.clients());
    await until(60_000, () => clients.every((c) => c.status().pending === 0)).catch(() =>
      problems.push(`batches still waiting after 60 s: ${devices.map((d) => `${d.id} ${d.clients().map((c) => c.status().pending).join('/')}`).join(', ')}`),
    );
    for (const d of devices) problems.push(...d.rejected.map((e) => `${d.id}: refused: ${e}`));
    const applied: Applied[] = [];
    for (const d of devices) {
      const placed = placeBatches({ id: d.id, batches: d.batches, commits: d.net.commits });
      problems.push(...placed.problems);
      applied.push(...placed.applied);
    }
    const modelDocs = expected(initial, applied);
    if (displayName !== undefined) modelDocs.set(profilePath, { ...modelDocs.get(profilePath), displayName: { stringValue: displayName } });
    const onServer = decode(await server.documents(account));
    const views: Record<string, Docs> = {};
    // The listens catch up: each device's copy becomes the server's.
    await until(30_000, async () => {
      for (const d of devices) views[d.id] = await view(d, profilePath);
      return devices.every((d) => isDeepStrictEqual(views[d.id], onServer));
    }).catch(() => undefined); // the test shows the difference
    for (const d of devices) for (let slot = 0; slot < TABS; slot++) await d.close(slot);

    const count = (f: (d: Device) => number) => devices.map(f).reduce((a, b) => a + b);
    const summary =
      `seed ${seed}: ${steps} steps, ${count((d) => d.batches.length)} writes, ` +
      `${count((d) => d.net.commits.length)} commit answers (${count((d) => d.net.counts.dropped)} dropped), ` +
      `${count((d) => d.net.counts.failed)} requests failed, ${count((d) => d.counts.offline)} times offline, ` +
      `${count((d) => d.counts.killed)} tabs killed, server killed ${serverKills.size}×, ${((Date.now() - began) / 1000).toFixed(1)} s`;
    return { summary, problems, server: onServer, model: decode(modelDocs), devices: views };
  } finally {
    for (const d of devices) {
      for (let slot = 0; slot < TABS; slot++) d.kill(slot); // those still open after a failure
      await d.erase();
    }
  }
}

/** A merge into users/{uid}: the whole preferences map, or one setting in it. */
function preferences(script: Random, path: string, by: string): Write {
  const value = { units: script.pick(['m', 'ft']), decimals: script.int(0, 6), by };
  if (script.chance(0.5)) return { kind: 'merge', path, fields: toFields({ preferences: value }), mask: ['preferences'] };
  const key = script.pick(['units', 'decimals', 'by'] as const);
  return { kind: 'merge', path, fields: toFields({ preferences: { [key]: value[key] } }), mask: [`preferences.${key}`] };
}

async function patchName(server: Handy, token: string, displayName: string): Promise<void> {
  const a = await server.call('PATCH', 'auth/me', token, { displayName });
  if (a.status !== 200) throw new Error(`PATCH /auth/me: ${a.status} ${JSON.stringify(a.body)}`);
}

/** The profile and the history as a tab of d reads them. */
async function view(d: Device, profilePath: string): Promise<Docs> {
  const [client] = d.clients();
  const docs = new Map<string, Fields>();
  const profile = await client.get(profilePath);
  if (profile) docs.set(profilePath, profile.fields);
  for (const e of await client.collection(`${profilePath}/history`)) docs.set(e.path, e.fields);
  return decode(docs);
}

function decode(docs: Map<string, Fields>): Docs {
  return Object.fromEntries([...docs].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, fields]) => [path, fromFields(fields)]));
}

async function until(ms: number, check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still waiting after ${ms / 1000} s`);
    await sleep(50);
  }
}
