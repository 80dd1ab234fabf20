// Part 15's trace reading on hand-made traces: `node --test scripts/bench/15-main-thread/`
// (`make lint` runs it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blocking, cls, mainThreadTasks, median, pageThread, taskParts } from './trace.mjs';

const url = 'http://127.0.0.1:8080/jp/faq';
const browser = 1;
const blank = 20; // the renderer of another tab (an earlier page)
const page = 30;

// Two renderers, each with a CrRendererMain; the browser commits the page in `page`.
const meta = [
  { ph: 'M', name: 'thread_name', pid: browser, tid: browser, args: { name: 'CrBrowserMain' } },
  { ph: 'M', name: 'thread_name', pid: blank, tid: blank, args: { name: 'CrRendererMain' } },
  { ph: 'M', name: 'thread_name', pid: page, tid: 31, args: { name: 'Compositor' } },
  { ph: 'M', name: 'thread_name', pid: page, tid: page, args: { name: 'CrRendererMain' } },
];
const commit = (pid, u, ts, parent) => ({
  ph: 'X', name: 'FrameCommittedInBrowser', pid: browser, tid: browser, ts, dur: 0,
  args: { data: { frame: 'F', processId: pid, url: u, ...(parent ? { parent } : {}) } },
});
const nav = (pid, u, ts) => ({ ph: 'R', name: 'navigationStart', pid, tid: pid, ts, args: { data: { documentLoaderURL: u } } });
const task = (pid, ts, dur, name = 'ThreadControllerImpl::RunTask') => ({ ph: 'X', name, pid, tid: pid, ts, dur });

test('the page thread is the renderer that committed the URL, from its navigationStart', () => {
  const events = [
    ...meta,
    nav(page, '', 500), // the tab's blank document
    commit(blank, 'http://127.0.0.1:8080/', 900),
    commit(page, url, 1000),
    commit(blank, 'http://127.0.0.1:8080/ad', 1100, 'P'), // a subframe: not the page
    nav(page, url, 1200),
  ];
  assert.deepEqual(pageThread(events, url), { pid: page, tid: page, start: 1200, url });
  // A redirect's final URL, not known to the caller: the last main-frame commit.
  assert.equal(pageThread(events, 'http://127.0.0.1:8080/').pid, blank);
  assert.equal(pageThread(events.filter((e) => !(e.name === 'FrameCommittedInBrowser' && e.args.data.processId === blank)), 'http://x/').pid, page);
});

test('a trace without the commit or the thread is refused', () => {
  assert.throws(() => pageThread(meta, url), /no main-frame commit/);
  assert.throws(() => pageThread([meta[0], commit(page, url, 1)], url), /no CrRendererMain thread in process 30/);
});

test('top-level tasks: nested ones folded in, other threads and earlier tasks left out', () => {
  const thread = { pid: page, tid: page, start: 10_000 };
  const events = [
    ...meta,
    task(page, 2_000, 3_000), // the blank page's, over before navigationStart
    task(page, 9_000, 2_000), // the commit: straddles navigationStart, counted
    task(page, 20_000, 80_000), // 80 ms
    task(page, 30_000, 60_000), // nested run loop inside it
    task(page, 40_000, 1_000, 'RunTask'), // nested too, other name
    task(page, 120_000, 50_000), // exactly 50 ms: not blocking
    { ph: 'B', name: 'RunTask', pid: page, tid: page, ts: 200_000 },
    { ph: 'X', name: 'FunctionCall', pid: page, tid: page, ts: 201_000, dur: 10_000 },
    { ph: 'E', name: 'RunTask', pid: page, tid: page, ts: 275_000 }, // 75 ms as B/E
    { ph: 'B', name: 'RunTask', pid: page, tid: page, ts: 400_000 }, // never ended: left out
    task(blank, 20_000, 500_000), // another renderer's
    { ...task(page, 20_000, 900_000), tid: 31 }, // the compositor's
  ];
  const tasks = mainThreadTasks(events, thread);
  assert.deepEqual(tasks, [
    { start: -1, dur: 2, ts: 9_000 },
    { start: 10, dur: 80, ts: 20_000 },
    { start: 110, dur: 50, ts: 120_000 },
    { start: 190, dur: 75, ts: 200_000 },
  ]);
  assert.deepEqual(blocking(tasks), { longest: 80, over: 30 + 25, long: 2 });
  assert.deepEqual(blocking([]), { longest: 0, over: 0, long: 0 });
});

test("a task's parts: the outermost work events by name, the rest as other", () => {
  const thread = { pid: page, tid: page, start: 0 };
  const work = (name, ts, dur, pid = page) => ({ ph: 'X', name, pid, tid: pid, ts, dur });
  const events = [
    task(page, 0, 100_000),
    work('v8.evaluateModule', 1_000, 30_000),
    work('FunctionCall', 5_000, 20_000), // inside the module's evaluation
    work('FunctionCall', 40_000, 25_000),
    work('Layout', 70_000, 10_000),
    work('Layout', 82_000, 5_000),
    work('Layout', 90_000, 50_000, blank), // another renderer's
    work('Paint', 150_000, 5_000), // after the task
  ];
  const [t] = mainThreadTasks(events, thread);
  assert.deepEqual(taskParts(events, thread, t), [
    { name: 'v8.evaluateModule', ms: 30 },
    { name: 'FunctionCall', ms: 25 },
    { name: 'Layout', ms: 15 },
    { name: 'other', ms: 30 },
  ]);
});

test('CLS: session windows of shifts without recent input', () => {
  assert.equal(cls([]), 0);
  const shifts = [
    { startTime: 100, value: 0.01 },
    { startTime: 600, value: 0.02 }, // same window (gap < 1 s)
    { startTime: 700, value: 0.5, hadRecentInput: true }, // after input: not counted
    { startTime: 3000, value: 0.025 }, // new window (gap ≥ 1 s), smaller than 0.03
  ];
  assert.ok(Math.abs(cls(shifts) - 0.03) < 1e-12);
  // A window closes after 5 s even with small gaps.
  const steady = Array.from({ length: 12 }, (_, i) => ({ startTime: i * 900, value: 0.01 }));
  assert.ok(Math.abs(cls(steady) - 0.06) < 1e-12);
});

test('median', () => {
  assert.ok(Number.isNaN(median([])));
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
});
