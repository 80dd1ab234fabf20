// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createIslands, type Hydrator } from './islands';

const island = (name: string, when: string) => `<div class="island" data-island="${name}" data-when="${when}"><button id="${name}-button">${name}</button></div>`;

/** A hydrator that records what it hydrates and resolves each hydration when told. */
function fakeHydrator() {
  const calls: { name: string; urgent: boolean; finish: () => void; unmounted: boolean }[] = [];
  const hydrator: Hydrator = {
    hydrate: (el, urgent) =>
      new Promise((resolve) => {
        const call = { name: el.dataset.island!, urgent, unmounted: false, finish: () => resolve(() => void (call.unmounted = true)) };
        calls.push(call);
      }),
  };
  return { calls, load: () => Promise.resolve(hydrator) };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('islands', () => {
  it('hydrates those due at load one after another, each in a task of its own', async () => {
    document.body.innerHTML = island('a', 'load') + island('b', 'load') + island('v', 'visible');
    const { calls, load } = fakeHydrator();
    globalThis.IntersectionObserver ??= class {
      observe() {}
      disconnect() {}
    } as unknown as typeof IntersectionObserver;
    const islands = createIslands(load);
    let ready = false;
    void islands.watch(document.body).then(() => (ready = true));
    expect(calls).toEqual([]); // not in the task that found them
    await vi.waitFor(() => expect(calls.map((c) => c.name)).toEqual(['a']));
    calls[0].finish();
    await vi.waitFor(() => expect(calls.map((c) => c.name)).toEqual(['a', 'b']));
    expect(ready).toBe(false);
    calls[1].finish();
    await vi.waitFor(() => expect(ready).toBe(true)); // the one that waits to be seen is not awaited
    expect(calls.every((c) => !c.urgent)).toBe(true);
  });

  it('holds a click until the island is alive, then replays it on the same element', async () => {
    document.body.innerHTML = island('theme', 'idle');
    vi.stubGlobal('requestIdleCallback', () => 1); // idle never comes: only the click wakes it
    vi.stubGlobal('cancelIdleCallback', () => {});
    const { calls, load } = fakeHydrator();
    const islands = createIslands(load);
    void islands.watch(document.body);
    const button = document.getElementById('theme-button')!;
    const clicks: boolean[] = [];
    button.addEventListener('click', (e) => clicks.push(e.isTrusted));
    button.click();
    expect(clicks).toEqual([]); // held
    await vi.waitFor(() => expect(calls.map((c) => [c.name, c.urgent])).toEqual([['theme', true]]));
    calls[0].finish();
    await vi.waitFor(() => expect(clicks).toHaveLength(1)); // replayed once
    button.click(); // alive: clicks go straight through
    expect(clicks).toHaveLength(2);
    expect(calls).toHaveLength(1);
  });

  it('counts an island woken by a click before idle as started, so the page goes on', async () => {
    document.body.innerHTML = island('theme', 'idle') + island('account', 'idle');
    let idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (fn: () => void) => idle.push(fn));
    vi.stubGlobal('cancelIdleCallback', () => {});
    const { calls, load } = fakeHydrator();
    const islands = createIslands(load);
    let ready = false;
    void islands.watch(document.body).then(() => (ready = true));
    document.getElementById('theme-button')!.click(); // before idle
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    calls[0].finish();
    [...idle].forEach((fn) => fn()); // idle comes: the account's island starts, the theme's is alive
    idle = [];
    await vi.waitFor(() => expect(calls.map((c) => c.name)).toEqual(['theme', 'account']));
    calls[1].finish();
    await vi.waitFor(() => expect(ready).toBe(true));
  });

  it('unmounts the islands of a part of the page that goes, and never starts those not yet alive', async () => {
    document.body.innerHTML = `<main>${island('a', 'load')}${island('b', 'load')}</main>`;
    const { calls, load } = fakeHydrator();
    const islands = createIslands(load);
    void islands.watch(document.body);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    calls[0].finish();
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    islands.unwatch(document.querySelector('main')!);
    expect(calls[0].unmounted).toBe(true);
    calls[1].finish(); // finished after it went: unmounted at once
    await vi.waitFor(() => expect(calls[1].unmounted).toBe(true));
  });

  it('leaves an island that fails to start as prerendered, and says so', async () => {
    document.body.innerHTML = island('a', 'load');
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const islands = createIslands(() => Promise.reject(new TypeError('Failed to fetch')));
    await islands.watch(document.body);
    expect(error).toHaveBeenCalledWith('The island a failed to start:', expect.any(TypeError));
    const clicks: number[] = [];
    document.getElementById('a-button')!.addEventListener('click', () => clicks.push(1));
    document.getElementById('a-button')!.click();
    await tick();
    expect(clicks).toEqual([1]); // not held for an island that will never come alive
  });
});
