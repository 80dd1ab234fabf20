// The flipper's workspace as one value and its transitions: the open images, each with its own
// transform, crop and the outcome of its last download; which one the stage shows; the undo
// steps; whether flips and turns go to every image or to the one shown; the output settings; the
// notices and the status line. Pure: the page dispatches and renders, the worker and the files
// stay with the page. Generic over the opened image, which the reducer only carries.
import { apply, identity, type Operation, type Transform } from '../../../lib/image/transform';
import type { Crop, FlipRequest } from '../protocol';
import type { OutputChoice } from './formats';
import type { Edges } from './lossless/jpeg';

export interface Settings {
  output: OutputChoice;
  /** 0–1, for JPEG and WebP. */
  quality: number;
  metadata: FlipRequest['metadata'];
  /** For a JPEG kept as JPEG: trim a partial edge to stay lossless, or re-encode to keep it. */
  edges: Edges;
}

export type Outcome = { kind: 'lossless' } | { kind: 'reencoded' } | { kind: 'error'; reason: string };

export interface Item<Image> {
  key: number;
  image: Image;
  crop?: Crop;
  /** This image's flips and turns, as one transform. */
  transform: Transform;
  /** How its last download went; cleared by any change to it. */
  outcome?: Outcome;
}

/** A step that can be undone: the transforms it replaced, by image. */
export type Step = ReadonlyMap<number, Transform>;

/** Whether flips and turns go to every image or to the one on the stage. */
export type Scope = 'all' | 'selected';

export interface Notice {
  key: number;
  text: string;
  kind: 'error' | 'info';
}

export interface Workspace<Image> {
  items: readonly Item<Image>[];
  /** The image chosen for the stage; the first is shown when none is (or it was removed). */
  selected?: number;
  steps: readonly Step[];
  scope: Scope;
  settings: Settings;
  notices: readonly Notice[];
  /** What the page is doing ("Working on …"), shown with a progress bar; the status line otherwise. */
  busy?: string;
  status: string;
  /** Files are being dragged over the page. */
  dragging: boolean;
  /** The image in the crop step. */
  cropping?: number;
  /** The last flip or turn, counted so that the same one twice plays its motion twice. */
  motion?: { op: Operation; count: number };
  /** 100 % or fitted to the stage; kept when another image is chosen, to check each in turn. */
  zoomed: boolean;
  /** The key the next image or notice gets: keys are never reused within a visit. */
  nextKey: number;
}

/** The fields an action simply sets: nothing else follows from them. */
export type Simple = Partial<Pick<Workspace<unknown>, 'selected' | 'scope' | 'cropping' | 'busy' | 'status' | 'dragging' | 'zoomed'>>;

export type Action<Image> =
  | { type: 'added'; image: Image }
  | { type: 'removed'; keys: readonly number[] }
  | { type: 'operated'; op: Operation }
  | { type: 'reset' }
  | { type: 'undone' }
  | { type: 'settingsChanged'; settings: Partial<Settings> }
  | { type: 'cropped'; key: number; crop: Crop | undefined }
  | { type: 'downloaded'; key: number; outcome: Outcome }
  | { type: 'notified'; text: string; kind: Notice['kind'] }
  | { type: 'set'; fields: Simple };

/** How a component that adds no image dispatches, whatever the page's image type. */
export type Dispatch = (action: Action<never>) => void;

export const defaultSettings: Settings = { output: 'same', quality: 0.92, metadata: 'strip', edges: 'trim' };

export function emptyWorkspace<Image>(scope: Scope = 'all'): Workspace<Image> {
  return { items: [], steps: [], scope, settings: defaultSettings, notices: [], status: '', dragging: false, zoomed: false, nextKey: 1 };
}

/** The image on the stage: the one chosen, else the first. */
export function current<Image>(w: Workspace<Image>): Item<Image> | undefined {
  return w.items.find((i) => i.key === w.selected) ?? w.items[0];
}

/** The images a flip, a turn or a reset applies to. */
export function targets<Image>(w: Workspace<Image>): readonly Item<Image>[] {
  const shown = current(w);
  return w.scope === 'selected' && shown ? [shown] : w.items;
}

export const canUndo = (w: Workspace<unknown>): boolean => w.steps.length > 0;

/** Whether a reset would change anything. */
export const canReset = (w: Workspace<unknown>): boolean => targets(w).some((i) => i.transform !== identity);

/** Gives each target image a new transform, as one step that undo reverts. */
function transformTargets<Image>(w: Workspace<Image>, next: (t: Transform) => Transform): Workspace<Image> {
  const changed = targets(w).filter((i) => next(i.transform) !== i.transform);
  if (changed.length === 0) return w;
  const step: Step = new Map(changed.map((i) => [i.key, i.transform]));
  return {
    ...w,
    steps: [...w.steps, step],
    items: w.items.map((i) => (step.has(i.key) ? { ...i, transform: next(i.transform), outcome: undefined } : i)),
  };
}

const update = <Image>(w: Workspace<Image>, key: number, change: Partial<Item<Image>>): Workspace<Image> => ({
  ...w,
  items: w.items.map((i) => (i.key === key ? { ...i, ...change } : i)),
});

export function workspaceReducer<Image>(w: Workspace<Image>, a: Action<Image>): Workspace<Image> {
  switch (a.type) {
    case 'added':
      return { ...w, items: [...w.items, { key: w.nextKey, image: a.image, transform: identity }], nextKey: w.nextKey + 1 };
    case 'removed': {
      const gone = new Set(a.keys);
      const items = w.items.filter((i) => !gone.has(i.key));
      return {
        ...w,
        items,
        cropping: w.cropping !== undefined && gone.has(w.cropping) ? undefined : w.cropping,
        steps: items.length === 0 ? [] : w.steps, // nothing left to undo
      };
    }
    case 'operated':
      return { ...transformTargets(w, (t) => apply(t, a.op)), motion: { op: a.op, count: (w.motion?.count ?? 0) + 1 } };
    case 'reset':
      return transformTargets(w, () => identity);
    case 'undone': {
      const last = w.steps.at(-1);
      if (!last) return w;
      return {
        ...w,
        steps: w.steps.slice(0, -1),
        items: w.items.map((i) => {
          const before = last.get(i.key);
          return before ? { ...i, transform: before, outcome: undefined } : i;
        }),
      };
    }
    case 'settingsChanged':
      return { ...w, settings: { ...w.settings, ...a.settings } };
    case 'cropped':
      return update(w, a.key, { crop: a.crop, outcome: undefined });
    case 'downloaded':
      return update(w, a.key, { outcome: a.outcome });
    case 'notified':
      return { ...w, notices: [...w.notices, { key: w.nextKey, text: a.text, kind: a.kind }], nextKey: w.nextKey + 1 };
    case 'set':
      // Unchanged fields keep the state as it is, so that React renders nothing (a drag over
      // the page sets `dragging` at every dragover event).
      return Object.entries(a.fields).every(([k, v]) => w[k as keyof Simple] === v) ? w : { ...w, ...a.fields };
  }
}
