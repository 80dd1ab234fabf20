import { describe, expect, it } from 'vitest';
import { createSearchWriter, createViewStore } from './view';

const route = { page: 'area-calculator', locale: 'en' } as const;

describe('createSearchWriter', () => {
  it('replaces the query of the view on screen', () => {
    const store = createViewStore({ path: '/area-calculator', search: '', route });
    const urls: string[] = [];
    const write = createSearchWriter(store, (s) => urls.push(s));
    write(store.get(), '?l=3&w=4');
    expect(store.get().search).toBe('?l=3&w=4');
    expect(urls).toEqual(['?l=3&w=4']);
  });

  it('drops a write from a view a navigation has replaced, even on the same page', () => {
    const store = createViewStore({ path: '/area-calculator', search: '?l=3', route });
    const urls: string[] = [];
    const write = createSearchWriter(store, (s) => urls.push(s));
    const before = store.get();
    store.set({ path: '/area-calculator', search: '?l=12.5&w=8', route }); // a history entry opened
    write(before, '?l=3&w=4'); // the page's delayed write of what it showed before
    expect(store.get().search).toBe('?l=12.5&w=8');
    expect(urls).toEqual([]);
  });
});
