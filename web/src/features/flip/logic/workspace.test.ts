import { describe, expect, it } from 'vitest';
import { apply, identity, type Operation } from '../../../lib/image/transform';
import { canReset, canUndo, current, emptyWorkspace, targets, workspaceReducer, type Action, type Workspace } from './workspace';

type W = Workspace<string>;
const run = (w: W, ...actions: Action<string>[]): W => actions.reduce(workspaceReducer<string>, w);
const added = (...names: string[]): W => run(emptyWorkspace<string>(), ...names.map((image) => ({ type: 'added' as const, image })));
const op = (o: Operation): Action<string> => ({ type: 'operated', op: o });
const transforms = (w: W) => w.items.map((i) => i.transform);

describe('the flipper workspace', () => {
  it('starts empty, with the default settings and the scope it is given', () => {
    const w = emptyWorkspace<string>('selected');
    expect(w).toMatchObject({ items: [], steps: [], notices: [], scope: 'selected', status: '', dragging: false, zoomed: false });
    expect(w.settings).toEqual({ output: 'same', quality: 0.92, metadata: 'strip', edges: 'trim' });
    expect(current(w)).toBeUndefined();
    expect(canUndo(w)).toBe(false);
    expect(canReset(w)).toBe(false);
  });

  it('gives images and notices keys that are never reused', () => {
    let w = added('a', 'b');
    w = run(w, { type: 'notified', text: 'hello', kind: 'info' }, { type: 'removed', keys: [2] }, { type: 'added', image: 'c' });
    expect(w.items.map((i) => [i.key, i.image, i.transform])).toEqual([
      [1, 'a', identity],
      [4, 'c', identity],
    ]);
    expect(w.notices).toEqual([{ key: 3, text: 'hello', kind: 'info' }]);
  });

  it('shows the chosen image, else the first', () => {
    let w = added('a', 'b', 'c');
    expect(current(w)?.image).toBe('a');
    w = run(w, { type: 'set', fields: { selected: 2 } });
    expect(current(w)?.image).toBe('b');
    w = run(w, { type: 'removed', keys: [2] });
    expect(current(w)?.image).toBe('a');
  });

  it('flips every image, or only the one shown, as one undoable step each', () => {
    let w = run(added('a', 'b'), { type: 'set', fields: { selected: 2 } }, op('flipH'));
    expect(transforms(w)).toEqual([apply(identity, 'flipH'), apply(identity, 'flipH')]);
    w = run(w, { type: 'set', fields: { scope: 'selected' } }, op('rotateCW'));
    expect(targets(w).map((i) => i.image)).toEqual(['b']);
    expect(transforms(w)).toEqual([apply(identity, 'flipH'), apply(apply(identity, 'flipH'), 'rotateCW')]);
    expect(w.steps).toHaveLength(2);
    w = run(w, { type: 'undone' });
    expect(transforms(w)).toEqual([apply(identity, 'flipH'), apply(identity, 'flipH')]);
    w = run(w, { type: 'undone' });
    expect(transforms(w)).toEqual([identity, identity]);
    expect(canUndo(w)).toBe(false);
    expect(run(w, { type: 'undone' })).toBe(w);
  });

  it('counts each flip or turn for its motion, even one that changes nothing', () => {
    let w = run(emptyWorkspace<string>(), op('flipV'));
    expect(w.motion).toEqual({ op: 'flipV', count: 1 });
    expect(w.steps).toEqual([]);
    w = run(w, op('flipV'), op('rotateCCW'));
    expect(w.motion).toEqual({ op: 'rotateCCW', count: 3 });
  });

  it('resets the targets as one step, and only when one is transformed', () => {
    let w = added('a', 'b');
    expect(run(w, { type: 'reset' })).toBe(w);
    w = run(w, { type: 'set', fields: { scope: 'selected' } }, op('rotateCW'), { type: 'set', fields: { scope: 'all' } });
    expect(canReset(w)).toBe(true);
    w = run(w, { type: 'reset' });
    expect(transforms(w)).toEqual([identity, identity]);
    expect(w.steps).toEqual([new Map([[1, identity]]), new Map([[1, apply(identity, 'rotateCW')]])]);
    expect(w.motion).toEqual({ op: 'rotateCW', count: 1 }); // a reset plays no motion
    expect(canReset(w)).toBe(false);
  });

  it('clears an outcome when its image changes, and keeps the others', () => {
    let w = run(
      added('a', 'b'),
      { type: 'downloaded', key: 1, outcome: { kind: 'lossless' } },
      { type: 'downloaded', key: 2, outcome: { kind: 'error', reason: 'broken' } },
      { type: 'set', fields: { selected: 1 } },
      { type: 'set', fields: { scope: 'selected' } },
      op('flipH'),
    );
    expect(w.items.map((i) => i.outcome)).toEqual([undefined, { kind: 'error', reason: 'broken' }]);
    w = run(w, { type: 'downloaded', key: 1, outcome: { kind: 'reencoded' } }, { type: 'undone' });
    expect(w.items[0].outcome).toBeUndefined();
    w = run(w, { type: 'cropped', key: 2, crop: { x: 0, y: 0, width: 5, height: 4 } });
    expect(w.items[1]).toMatchObject({ crop: { x: 0, y: 0, width: 5, height: 4 }, outcome: undefined });
    w = run(w, { type: 'cropped', key: 2, crop: undefined });
    expect(w.items[1].crop).toBeUndefined();
  });

  it('forgets the undo steps when the last image goes, and the crop step with its image', () => {
    let w = run(added('a', 'b'), op('flipH'), { type: 'set', fields: { cropping: 2 } });
    w = run(w, { type: 'removed', keys: [1] });
    expect([w.steps.length, w.cropping]).toEqual([1, 2]);
    w = run(w, { type: 'removed', keys: [2] });
    expect([w.items, w.steps, w.cropping]).toEqual([[], [], undefined]);
    expect(run(added('a'), { type: 'set', fields: { cropping: 1 } }, { type: 'set', fields: { cropping: undefined } }).cropping).toBeUndefined();
  });

  it('merges changed settings, and sets the simple fields as they come', () => {
    const w = run(
      emptyWorkspace<string>(),
      { type: 'settingsChanged', settings: { output: 'png' } },
      { type: 'settingsChanged', settings: { quality: 0.5 } },
      { type: 'set', fields: { busy: 'Working', status: 'Saved' } },
      { type: 'set', fields: { dragging: true, zoomed: true } },
    );
    expect(w).toMatchObject({ busy: 'Working', status: 'Saved', dragging: true, zoomed: true });
    expect(w.settings).toEqual({ output: 'png', quality: 0.5, metadata: 'strip', edges: 'trim' });
    expect(run(w, { type: 'set', fields: { busy: undefined } })).toMatchObject({ busy: undefined, status: 'Saved', zoomed: true });
    expect(run(w, { type: 'set', fields: { dragging: true, status: 'Saved' } })).toBe(w);
  });
});
