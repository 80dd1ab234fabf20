// Part 15's reading of a Chromium performance trace and of the page's layout shifts: pure
// functions of the recorded data (trace.test.mjs feeds them hand-made traces), so that what
// counts as the page's main thread, a task and the CLS is decided in one place.

/** Names of a top-level task on a Chromium thread across versions (Chromium 156 writes
 * `ThreadControllerImpl::RunTask`; Lighthouse accepts the same four). */
export const taskNames = new Set(['RunTask', 'ThreadControllerImpl::RunTask', 'ThreadControllerImpl::DoWork', 'TaskQueueManager::ProcessTaskFromWorkQueue']);

/** The trace categories part 15 records: tasks (`toplevel`), the frame commits that name the
 * page's renderer and the timeline events (`devtools.timeline` and its disabled-by-default
 * half), the document's navigationStart (`blink.user_timing`). */
export const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'blink.user_timing'];

/** The long-task threshold (ms): what a task takes beyond it counts as blocking. */
export const blockingAfter = 50;

const isWeb = (u) => typeof u === 'string' && /^https?:\/\//.test(u);

/**
 * The main thread of the renderer that committed `url` in the tab's main frame:
 * `{ pid, tid, start }`, `start` being the trace time (µs) of the document's navigationStart on
 * that thread (tasks that end before it belong to the blank page the tab opened with). The
 * process is the one the browser names in its last main-frame `FrameCommittedInBrowser` for
 * `url` (or, without one, for any web URL: a redirect's final URL is what commits); the thread
 * is that process's `CrRendererMain`. Throws when the trace names neither.
 * @param {any[]} events the trace's traceEvents
 * @param {string} [url] the page's final URL
 */
export function pageThread(events, url) {
  const commits = events.filter((e) => e.name === 'FrameCommittedInBrowser' && e.args?.data && !e.args.data.parent && isWeb(e.args.data.url));
  const commit = commits.findLast((e) => e.args.data.url === url) ?? commits.at(-1);
  if (!commit) throw new Error(`the trace has no main-frame commit of a web page (${url ?? 'no URL'})`);
  const pid = commit.args.data.processId;
  const named = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain');
  if (!named) throw new Error(`the trace names no CrRendererMain thread in process ${pid} (${commit.args.data.url})`);
  const tid = named.tid;
  const navs = events.filter((e) => e.name === 'navigationStart' && e.pid === pid && e.tid === tid && isWeb(e.args?.data?.documentLoaderURL));
  const nav = navs.find((e) => e.args.data.documentLoaderURL === commit.args.data.url) ?? navs[0];
  return { pid, tid, start: nav ? nav.ts : -Infinity, url: commit.args.data.url };
}

/**
 * The top-level tasks of `thread` that end after its `start`, in order: `{ start, dur }` in ms,
 * `start` relative to the thread's `start` (negative for the task that commits the page), and
 * `ts`, the trace's own time (µs). A
 * task is a complete (`X`) or begin/end (`B`/`E`) event named in `taskNames`; one nested in
 * another (a nested run loop) is part of the outer one. A task still open when the trace
 * ended is left out: it has no duration.
 * @param {any[]} events
 * @param {{ pid: number, tid: number, start: number }} thread
 */
export function mainThreadTasks(events, thread) {
  const spans = [];
  const open = [];
  const mine = events.filter((e) => e.pid === thread.pid && e.tid === thread.tid && taskNames.has(e.name)).sort((a, b) => a.ts - b.ts);
  for (const e of mine) {
    if (e.ph === 'X' && typeof e.dur === 'number') spans.push({ ts: e.ts, end: e.ts + e.dur });
    else if (e.ph === 'B') open.push(e);
    else if (e.ph === 'E') {
      const b = open.pop();
      if (b) spans.push({ ts: b.ts, end: e.ts });
    }
  }
  spans.sort((a, b) => a.ts - b.ts || b.end - a.end);
  const origin = Number.isFinite(thread.start) ? thread.start : (spans[0]?.ts ?? 0);
  const tasks = [];
  let outerEnd = -Infinity;
  for (const s of spans) {
    if (s.ts < outerEnd) continue; // nested in the task before
    outerEnd = s.end;
    if (s.end <= thread.start) continue;
    tasks.push({ start: (s.ts - origin) / 1000, dur: (s.end - s.ts) / 1000, ts: s.ts });
  }
  return tasks;
}

/** Timeline events that say what a task spent its time on (Chromium's names). */
export const workNames = new Set([
  'ParseHTML', 'ParseAuthorStyleSheet', 'EvaluateScript', 'v8.compile', 'v8.compileModule', 'v8.evaluateModule',
  'FunctionCall', 'TimerFire', 'EventDispatch', 'FireAnimationFrame', 'FireIdleCallback', 'RunMicrotasks',
  'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'HitTest', 'CommitLoad',
  'MajorGC', 'MinorGC', 'BlinkGC.AtomicPhase',
]);

/**
 * What `task` (one of mainThreadTasks') was made of: the outermost `workNames` events in it on
 * the same thread, summed by name, largest first (ms), then `other`, the rest of the task.
 * @returns {{ name: string, ms: number }[]}
 */
export function taskParts(events, thread, task) {
  const end = task.ts + task.dur * 1000;
  const inside = events
    .filter((e) => e.ph === 'X' && e.pid === thread.pid && e.tid === thread.tid && workNames.has(e.name) && e.ts >= task.ts && e.ts < end)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const by = new Map();
  let outerEnd = -Infinity;
  let counted = 0;
  for (const e of inside) {
    if (e.ts < outerEnd) continue; // inside a listed event already counted
    outerEnd = e.ts + e.dur;
    by.set(e.name, (by.get(e.name) ?? 0) + e.dur / 1000);
    counted += e.dur / 1000;
  }
  const parts = [...by].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
  return [...parts, { name: 'other', ms: Math.max(0, task.dur - counted) }];
}

/** The longest task (ms), Σ max(0, dur − 50) over the tasks (ms, Total Blocking Time's sum over
 * the whole load) and how many tasks took more than 50 ms. */
export function blocking(tasks) {
  let longest = 0;
  let over = 0;
  let long = 0;
  for (const t of tasks) {
    longest = Math.max(longest, t.dur);
    if (t.dur > blockingAfter) {
      over += t.dur - blockingAfter;
      long++;
    }
  }
  return { longest, over, long };
}

/**
 * Cumulative Layout Shift as Chromium defines it: shifts without recent input, grouped into
 * session windows (a gap under 1 s, at most 5 s long); the largest window's sum.
 * @param {{ startTime: number, value: number, hadRecentInput?: boolean }[]} shifts
 */
export function cls(shifts) {
  let worst = 0;
  let sum = 0;
  let first = -Infinity;
  let last = -Infinity;
  for (const s of [...shifts].filter((x) => !x.hadRecentInput).sort((a, b) => a.startTime - b.startTime)) {
    if (s.startTime - last < 1000 && s.startTime - first < 5000) sum += s.value;
    else {
      sum = s.value;
      first = s.startTime;
    }
    last = s.startTime;
    worst = Math.max(worst, sum);
  }
  return worst;
}

/** The median of a list of numbers (the mean of the middle two for an even count); NaN when empty. */
export function median(xs) {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
