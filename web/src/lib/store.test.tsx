import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { createStore, useStore } from './store';

describe('createStore', () => {
  it('holds a value and tells every listener of a change, until it unsubscribes', () => {
    const store = createStore(1);
    const a = vi.fn();
    const b = vi.fn();
    const stopA = store.subscribe(a);
    store.subscribe(b);
    store.set(2);
    expect(store.get()).toBe(2);
    expect([a.mock.calls.length, b.mock.calls.length]).toEqual([1, 1]);
    stopA();
    store.set((n) => n * 10);
    expect(store.get()).toBe(20);
    expect([a.mock.calls.length, b.mock.calls.length]).toEqual([1, 2]);
  });

  it('lets a listener unsubscribe while being told, without skipping the others', () => {
    const store = createStore('x');
    const seen: string[] = [];
    const stop = store.subscribe(() => {
      seen.push('first');
      stop();
    });
    store.subscribe(() => seen.push('second'));
    store.set('y');
    store.set('z');
    expect(seen).toEqual(['first', 'second', 'second']);
  });
});

describe('useStore', () => {
  // Re-rendering on a change is React's useSyncExternalStore; what is ours is what it reads.
  it('renders the selected part, and the server value while prerendering when one is given', () => {
    const store = createStore({ name: 'Ada', count: 0 });
    const Name = ({ server }: { server?: () => string }) => <p>{useStore(store, (s) => s.name, server)}</p>;
    expect(renderToString(<Name />)).toBe('<p>Ada</p>');
    expect(renderToString(<Name server={() => 'nobody'} />)).toBe('<p>nobody</p>');
    store.set((s) => ({ ...s, name: 'Grace' }));
    expect(renderToString(<Name />)).toBe('<p>Grace</p>');
  });
});
