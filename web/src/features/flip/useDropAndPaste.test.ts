// @vitest-environment happy-dom
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useDropAndPaste } from './useDropAndPaste';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
afterEach(() => vi.restoreAllMocks());

function Drop(props: { onFiles: (files: File[]) => void; onDragging: (dragging: boolean) => void }) {
  useDropAndPaste(props.onFiles, props.onDragging);
  return null;
}

/** An event of `type` carrying `files` as a drag (dataTransfer) or a paste (clipboardData) would. */
function send(type: 'dragover' | 'dragleave' | 'drop' | 'paste', files: File[], extra: Record<string, unknown> = {}) {
  const e = new Event(type, { cancelable: true });
  const data = { types: files.length > 0 ? ['Files'] : ['text/plain'], files };
  Object.defineProperties(e, {
    [type === 'paste' ? 'clipboardData' : 'dataTransfer']: { value: data },
    relatedTarget: { value: null },
    ...Object.fromEntries(Object.entries(extra).map(([k, value]) => [k, { value }])),
  });
  document.dispatchEvent(e);
  return e;
}

const events = ['dragover', 'dragleave', 'drop', 'paste'];
const count = (spy: { mock: { calls: unknown[][] } }) =>
  events.map((type) => spy.mock.calls.filter(([t]) => t === type).length);

describe('useDropAndPaste', () => {
  it('attaches its listeners once across re-renders and hands files to the latest callbacks', () => {
    const added = vi.spyOn(document, 'addEventListener');
    const removed = vi.spyOn(document, 'removeEventListener');
    const root = createRoot(document.createElement('div'));
    const [firstFiles, firstDragging, files, dragging] = [vi.fn(), vi.fn(), vi.fn(), vi.fn()];
    act(() => root.render(createElement(Drop, { onFiles: firstFiles, onDragging: firstDragging })));
    act(() => root.render(createElement(Drop, { onFiles: vi.fn(), onDragging: vi.fn() })));
    act(() => root.render(createElement(Drop, { onFiles: files, onDragging: dragging })));
    expect(count(added)).toEqual([1, 1, 1, 1]);
    expect(count(removed)).toEqual([0, 0, 0, 0]);

    const photo = new File(['x'], 'photo.png', { type: 'image/png' });
    expect(send('dragover', [photo]).defaultPrevented).toBe(true);
    send('dragleave', []);
    expect(send('drop', [photo]).defaultPrevented).toBe(true);
    expect(send('paste', [photo]).defaultPrevented).toBe(true);
    expect(dragging.mock.calls).toEqual([[true], [false], [false]]);
    expect(files.mock.calls).toEqual([[[photo]], [[photo]]]);
    expect([firstFiles, firstDragging].map((f) => f.mock.calls.length)).toEqual([0, 0]);

    act(() => root.unmount());
    expect(count(removed)).toEqual([1, 1, 1, 1]);
  });

  it('leaves drags and pastes without files to the page', () => {
    const root = createRoot(document.createElement('div'));
    const [files, dragging] = [vi.fn(), vi.fn()];
    act(() => root.render(createElement(Drop, { onFiles: files, onDragging: dragging })));
    expect(send('dragover', []).defaultPrevented).toBe(false);
    expect(send('drop', []).defaultPrevented).toBe(false);
    expect(send('paste', []).defaultPrevented).toBe(false);
    // Leaving for another element of the page is not leaving the page.
    send('dragleave', [], { relatedTarget: document.body });
    expect([files.mock.calls, dragging.mock.calls]).toEqual([[], []]);
    act(() => root.unmount());
  });
});
