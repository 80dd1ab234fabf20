// The reference model: what the server must hold, given every write call that resolved on
// either device and the commit answers the network saw. A commit carries a run of a device's
// batches, oldest first, under its last batch's id (an engine may group them), and is applied
// once, at one version, however often it is sent. So each batch must be carried by exactly one
// applied commit (none: a write was lost; two: it was applied twice), that commit must carry
// exactly the writes the test made, and the server's documents must be the test's writes
// applied once each, in the order of their versions.
import type { Fields } from '../../../src/sync/values';
import { applyWrite, toServer, type Write } from '../../../src/sync/writes';
import type { SeenCommit } from './network';

/** A device as the model needs it. */
export interface Writer {
  id: string;
  batches: Write[][];
  commits: SeenCommit[];
}

/** A run of batches the server applied as one commit. */
export interface Applied {
  version: number;
  writes: Write[];
}

/**
 * The commits that applied writer's batches, and what is wrong: a batch no commit carried or
 * two did, a commit answered with two versions or refused for good, or one whose writes are not
 * those of the batches it stands for.
 */
export function placeBatches(w: Writer): { applied: Applied[]; problems: string[] } {
  const problems: string[] = [];
  const answered = new Map<string, SeenCommit>();
  for (const c of w.commits) {
    const key = `${c.clientId}/${c.batchId}`;
    if (c.status !== 200) {
      // 429 and 503 are "send it again"; anything else would undo a write the test made.
      if (c.status !== 429 && c.status !== 503) problems.push(`${w.id}: commit ${key} refused: ${c.status} ${c.error}`);
      continue;
    }
    const first = answered.get(key);
    if (first && first.version !== c.version) problems.push(`${w.id}: commit ${key} applied twice, at versions ${first.version} and ${c.version}`);
    if (!first) answered.set(key, c);
  }
  const carriedBy = new Map<number, string>();
  const applied: Applied[] = [];
  for (const [key, c] of [...answered].sort(([, a], [, b]) => a.batchId - b.batchId)) {
    // The run of batches ending at c.batchId with as many writes as c carries.
    const writes: Write[] = [];
    let first = c.batchId + 1;
    while (writes.length < c.writes.length && first > 1) writes.unshift(...(w.batches[--first - 1] ?? []));
    if (JSON.stringify(writes.map(toServer)) !== JSON.stringify(c.writes)) {
      problems.push(`${w.id}: commit ${key} carries ${c.writes.length} writes, not those of batches ${first}–${c.batchId} (${brief(writes)})`);
      continue;
    }
    for (let b = first; b <= c.batchId; b++) {
      const other = carriedBy.get(b);
      if (other) problems.push(`${w.id}: batch ${b} applied twice, by commits ${other} and ${key}`);
      carriedBy.set(b, key);
    }
    applied.push({ version: Number(c.version), writes });
  }
  for (let b = 1; b <= w.batches.length; b++) {
    if (!carriedBy.has(b)) problems.push(`${w.id}: batch ${b} (${brief(w.batches[b - 1])}) was never applied`);
  }
  // The engine sends in order, so the server applies a device's batches in order.
  for (let i = 1; i < applied.length; i++) {
    if (applied[i].version < applied[i - 1].version) problems.push(`${w.id}: commits applied out of order (versions ${applied[i - 1].version}, ${applied[i].version})`);
  }
  return { applied, problems };
}

/**
 * The documents after the applied commits of every device, in version order, starting from
 * initial. A commit that changed nothing has the version of the last commit before it, so two
 * may share one; its writes were already true of what it met, and stay without effect if it
 * goes first, so equal versions need no order.
 */
export function expected(initial: Map<string, Fields>, applied: Applied[]): Map<string, Fields> {
  const docs = new Map(initial);
  for (const a of [...applied].sort((x, y) => x.version - y.version)) {
    for (const w of a.writes) {
      const before = docs.get(w.path);
      const after = applyWrite(before ? { path: w.path, fields: before } : null, w);
      if (after) docs.set(w.path, after.fields);
      else docs.delete(w.path);
    }
  }
  return docs;
}

/** "set history/A3-0, merge users/{uid}": what a batch does, for a message. */
function brief(writes: Write[]): string {
  return writes.map((w) => `${w.kind} ${w.path.replace(/^users\/[^/]+\/history\//, 'history/').replace(/^users\/[^/]+$/, 'users/{uid}')}`).join(', ');
}
