// One traced first load of a page for part 15: a fresh browser context (no cache, no storage
// but what the scenario gives it), 4× CPU throttling, a performance trace from before the
// navigation until the page is quiet, then the main thread's tasks, the CLS and the script bytes.
import { blocking, categories, cls, mainThreadTasks, pageThread, taskParts } from './trace.mjs';

/** CPU slowdown (Lighthouse's mobile figure and issue 29's). */
export const cpuRate = 4;
/** The screen: Lighthouse's mobile one (part 4's judge; issue 29's figures are mobile). */
export const screen = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };
/** Quiet: the load event, then no long task for `longQuietMs` and no network for `netQuietMs`. */
const longQuietMs = 2000;
const netQuietMs = 500;
const pollMs = 250;

// Runs in every document before its own scripts: the layout shifts (as the page's CLS counts
// them) and the end of the last long task, both read by the driver.
function observe() {
  const mt = { shifts: [], lastLong: 0 };
  Object.defineProperty(window, '__mt', { value: mt });
  const describe = (node) => {
    if (!node || node.nodeType !== 1) return node ? node.nodeName : '';
    const cls = typeof node.className === 'string' && node.className.trim() ? '.' + node.className.trim().split(/\s+/).join('.') : '';
    return node.localName + (node.id ? '#' + node.id : '') + cls;
  };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const src = e.sources?.[0];
        const box = (r) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
        const moved = src ? `${box(src.previousRect)} → ${box(src.currentRect)}` : '';
        mt.shifts.push({ startTime: e.startTime, value: e.value, hadRecentInput: e.hadRecentInput, node: `${describe(src?.node)} ${moved}`.trim() });
      }
    }).observe({ type: 'layout-shift', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) mt.lastLong = Math.max(mt.lastLong, e.startTime + e.duration);
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // about:blank and other documents without these entry types: nothing to observe
  }
}

// The page's requests from its CDP session: when the network last moved, which requests are
// waiting for an answer (a streaming answer whose headers came, such as the history's listen,
// does not keep the page busy), and the bytes of every script as transferred (headers included,
// as Lighthouse counts them): those requested before the load event (the first load), and all
// of them until quiet (with the routes preloaded and the code loaded after the load).
function watchNetwork(cdp) {
  const waiting = new Set();
  const requests = new Map();
  const net = { last: Date.now(), loadAt: Infinity, jsAtLoad: 0, jsBytes: 0, scripts: 0, api: [] };
  const moved = () => (net.last = Date.now());
  cdp.on('Page.loadEventFired', (e) => (net.loadAt = Math.min(net.loadAt, e.timestamp)));
  cdp.on('Network.requestWillBeSent', (e) => {
    waiting.add(e.requestId);
    if (!requests.has(e.requestId)) requests.set(e.requestId, { sent: e.timestamp });
    moved();
  });
  cdp.on('Network.responseReceived', (e) => {
    waiting.delete(e.requestId);
    Object.assign(requests.get(e.requestId) ?? {}, { type: e.type, mime: e.response.mimeType, url: e.response.url, status: e.response.status });
    moved();
  });
  cdp.on('Network.dataReceived', moved);
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (r && (r.type === 'Script' || /javascript/.test(r.mime))) {
      net.jsBytes += e.encodedDataLength;
      net.scripts++;
      if (r.sent < net.loadAt) net.jsAtLoad += e.encodedDataLength;
    }
    if (r?.url && /\/api\//.test(r.url)) net.api.push(`${new URL(r.url).pathname} ${r.status}`);
    moved();
  });
  cdp.on('Network.loadingFailed', (e) => {
    waiting.delete(e.requestId);
    moved();
  });
  net.quietFor = () => (waiting.size ? 0 : Date.now() - net.last);
  return net;
}

/**
 * Loads `url` once and measures it.
 * @param {import('@playwright/test').Browser} browser
 * @param {{ url: string, context?: import('@playwright/test').BrowserContextOptions, capMs: number, save?: (trace: Buffer) => void }} o
 */
export async function loadOnce(browser, { url, context: options = {}, capMs, save }) {
  const context = await browser.newContext({ ...screen, ...options });
  try {
    await context.addInitScript(observe);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Page.enable');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
    const net = watchNetwork(cdp);
    let capped = false;
    let quietAt = 0;
    await browser.startTracing(page, { categories });
    const started = Date.now();
    let trace;
    try {
      await page.goto(url, { waitUntil: 'load', timeout: capMs });
      for (;;) {
        const sinceLong = await page.evaluate(() => performance.now() - window.__mt.lastLong);
        quietAt = Date.now() - started;
        if (sinceLong >= longQuietMs && net.quietFor() >= netQuietMs) break;
        if (quietAt >= capMs) {
          capped = true;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    } finally {
      trace = await browser.stopTracing();
    }
    const shifts = await page.evaluate(() => window.__mt.shifts);
    const finalUrl = page.url();
    save?.(trace);
    const events = JSON.parse(trace.toString('utf8')).traceEvents;
    const thread = pageThread(events, finalUrl);
    const tasks = mainThreadTasks(events, thread);
    const longestTask = tasks.reduce((a, t) => (t.dur > (a?.dur ?? -1) ? t : a), undefined);
    const parts = longestTask ? taskParts(events, thread, longestTask).filter((x) => x.ms >= 1) : [];
    return {
      parts: parts.map((x) => `${x.name} ${x.ms.toFixed(0)}`).join(', '),
      finalUrl,
      ...blocking(tasks),
      tasks: tasks.length,
      cls: cls(shifts),
      shifts: shifts.filter((s) => !s.hadRecentInput),
      jsAtLoad: net.jsAtLoad,
      jsBytes: net.jsBytes,
      scripts: net.scripts,
      api: net.api,
      quietMs: quietAt,
      capped,
    };
  } finally {
    await context.close();
  }
}
