import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/react';
import { Field } from '../../ui/fields/Field';
import { SelectField } from '../../ui/fields/SelectField';
import { apply, identity, type Operation, type Transform } from '../../lib/image/transform';
import { formatNumber } from '../../lib/number';
import { outputFormat, uniqueNames, type OutputChoice } from './logic/formats';
import { createFlipClient, type FlipClient } from './flipClient';
import { openImage, type OpenedImage, type Problem } from './inspect';
import { Compare } from './Compare';
import type { LoadRegion } from './Zoom';
import { Preview } from './Preview';
import { render, wantsLossless, type Settings } from './render';
import type { Edges } from './logic/lossless';
import type { LosslessOutcome } from './protocol';
import { saveBlob, zipFiles } from './download';
import { recordFlips } from './history';
import { useIncomingFiles } from '../pwa/public';
import { useDropAndPaste } from './useDropAndPaste';
import { useShortcuts, type Shortcut } from './useShortcuts';
import type { Crop } from './protocol';

type CropPanelComponent = typeof import('./CropPanel').CropPanel;

const MAX_FILES = 50;
const outputChoices: readonly OutputChoice[] = ['same', 'png', 'jpeg', 'webp'];
const metadataChoices: readonly Settings['metadata'][] = ['strip', 'keep-without-location', 'keep'];
const edgeChoices: readonly Edges[] = ['trim', 'perfect'];

/** Why a lossless flip could not be done, in the words the page has for it. */
function fallbackReason(outcome: Extract<LosslessOutcome, { done: false }>): 'edges' | 'unsupported' | 'damaged' {
  if (outcome.reason === 'edges' || outcome.reason === 'tooSmall') return 'edges';
  return outcome.reason === 'damaged' ? 'damaged' : 'unsupported';
}

interface Item {
  key: number;
  image: OpenedImage;
  crop?: Crop;
  /** This image's flips and turns, as one transform. */
  transform: Transform;
  /** How its last download went; cleared by any change to it. */
  outcome?: Outcome;
}

type Outcome = { kind: 'lossless' } | { kind: 'reencoded' } | { kind: 'error'; reason: string };

/** A step that can be undone: the transforms it replaced, by image. */
type Step = ReadonlyMap<number, Transform>;

/** Whether flips and turns go to every image or to the one on the stage; kept for the visit. */
type Scope = 'all' | 'selected';
const scopeKey = 'handy:flip:scope';

function storedScope(): Scope {
  try {
    return sessionStorage.getItem(scopeKey) === 'selected' ? 'selected' : 'all';
  } catch {
    return 'all'; // storage refused: the default
  }
}

interface Notice {
  key: number;
  text: string;
  kind: 'error' | 'info';
}

let nextKey = 1;

export function FlipImageTool({ lang }: { lang: string }) {
  const { t, i18n } = useTranslation('flip');
  const [items, setItems] = useState<Item[]>([]);
  const [notices, setNotices] = useState<Notice[]>([]);
  const [steps, setSteps] = useState<Step[]>([]);
  // The prerendered page shows no workspace, so the visit's choice cannot make hydration differ.
  const [scope, setScope] = useState<Scope>(() => (typeof window === 'undefined' ? 'all' : storedScope()));
  const [settings, setSettings] = useState<Settings>({ output: 'same', quality: 0.92, metadata: 'strip', edges: 'trim' });
  const [busy, setBusy] = useState<string | undefined>();
  const [status, setStatus] = useState('');
  const [dragging, setDragging] = useState(false);
  const [cropping, setCropping] = useState<number | undefined>();
  // The crop step's code (the cropper) loads on its first use, not with the page.
  const [CropPanel, setCropPanel] = useState<CropPanelComponent>();
  const [selected, setSelected] = useState<number | undefined>();
  const [motion, setMotion] = useState<{ op: Operation; count: number } | undefined>();
  // 100 % or fitted to the stage; kept when another image is chosen, to check each in turn.
  const [zoomed, setZoomed] = useState(false);
  const client = useRef<FlipClient>(undefined);
  const stage = useRef<HTMLElement>(null);
  const croppingItem = items.find((i) => i.key === cropping);
  // The image on the stage: the one chosen, else the first.
  const current = items.find((i) => i.key === selected) ?? items[0];
  const hasImages = current !== undefined;
  const setCrop = (key: number, crop: Crop | undefined) =>
    setItems((list) => list.map((i) => (i.key === key ? { ...i, crop, outcome: undefined } : i)));
  // The images a flip, a turn or a reset applies to.
  const targets = scope === 'selected' && current ? [current] : items;

  useEffect(() => () => client.current?.terminate(), []);
  // The first image brings the stage into view, its toolbar within reach at the bottom of a phone.
  useEffect(() => {
    if (hasImages) stage.current?.scrollIntoView({ block: 'nearest' });
  }, [hasImages]);

  const notify = (text: string, kind: Notice['kind'] = 'info') => setNotices((n) => [...n, { key: nextKey++, text, kind }]);

  const problemText = (problem: Problem, file: File) =>
    t(`errors.${problem}`, { name: file.name || 'image', size: megabytes(file.size, lang) });

  async function add(files: readonly File[]) {
    if (files.length === 0) return;
    const room = MAX_FILES - items.length;
    if (files.length > room) notify(t('errors.tooMany', { max: MAX_FILES }), 'error');
    const accepted = files.slice(0, Math.max(0, room));
    const worker = (client.current ??= createFlipClient());
    // One at a time, each shown as soon as it is ready: a batch of large photos decoded at once
    // would hold all their pixels in memory together.
    for (const file of accepted) {
      setBusy(t('working', { name: file.name }));
      const o = await openImage(file, worker);
      if (!o.ok) notify(problemText(o.problem, o.file), 'error');
      else {
        if (o.animated) notify(t('animated', { name: o.file.name }));
        setItems((list) => [...list, { key: nextKey++, image: o, transform: identity }]);
      }
    }
    setBusy(undefined);
  }

  function remove(gone: readonly Item[]) {
    for (const i of gone) if (i.image.decoded !== undefined) client.current?.forget(i.image.decoded);
    const keys = new Set(gone.map((i) => i.key));
    setItems((list) => list.filter((i) => !keys.has(i.key)));
    if (cropping !== undefined && keys.has(cropping)) setCropping(undefined);
    if (items.every((i) => keys.has(i.key))) setSteps([]); // nothing left to undo
  }

  /** Gives each target image a new transform, as one step that undo reverts. */
  function transformTargets(next: (t: Transform) => Transform) {
    const changed = targets.filter((i) => next(i.transform) !== i.transform);
    if (changed.length === 0) return;
    setSteps((list) => [...list, new Map(changed.map((i) => [i.key, i.transform]))]);
    const keys = new Set(changed.map((i) => i.key));
    setItems((list) => list.map((i) => (keys.has(i.key) ? { ...i, transform: next(i.transform), outcome: undefined } : i)));
  }

  function operate(op: Operation) {
    transformTargets((t) => apply(t, op));
    setMotion((m) => ({ op, count: (m?.count ?? 0) + 1 }));
  }

  function undo() {
    const last = steps[steps.length - 1];
    if (!last) return;
    setSteps((list) => list.slice(0, -1));
    setItems((list) => list.map((i) => (last.has(i.key) ? { ...i, transform: last.get(i.key)!, outcome: undefined } : i)));
  }

  function chooseScope(next: Scope) {
    setScope(next);
    try {
      sessionStorage.setItem(scopeKey, next);
    } catch {
      // storage refused: the choice lasts as long as the page
    }
  }

  async function crop(key: number) {
    if (!CropPanel) {
      try {
        const { CropPanel: loaded } = await import('./CropPanel');
        setCropPanel(() => loaded);
      } catch {
        notify(t('cropper.unavailable'), 'error'); // offline before the worker kept it, or a new build
        return;
      }
    }
    setCropping(key);
  }

  function setOutcome(key: number, outcome: Outcome) {
    setItems((list) => list.map((i) => (i.key === key ? { ...i, outcome } : i)));
  }

  async function download(only?: Item) {
    const queue = only ? [only] : items;
    if (queue.length === 0 || busy) return;
    const worker = (client.current ??= createFlipClient());
    const results: { name: string; blob: Blob; width: number; height: number; format: string; transform: Transform }[] = [];
    let lossless = 0;
    for (const item of queue) {
      setBusy(t('working', { name: item.image.file.name }));
      const { transform } = item;
      const r = await render(worker, item.image, transform, item.crop, settings);
      const file = item.image.file;
      if (!r.ok) {
        const problem = r.error === 'decode' ? 'corrupt' : 'tooLarge';
        const reason = r.error === 'encode' ? t('errors.encode', { name: file.name }) : problemText(problem, file);
        notify(reason, 'error');
        setOutcome(item.key, { kind: 'error', reason });
        continue;
      }
      setOutcome(item.key, { kind: r.lossless?.done ? 'lossless' : 'reencoded' });
      if (outputFormat(item.image.format, settings.output) !== item.image.format && settings.output === 'same') {
        notify(t('converted', { from: item.image.format.toUpperCase(), name: file.name }));
      }
      if (r.locationRemoved) notify(t('locationRemoved', { name: file.name }));
      if (r.inStrips) notify(t('inStrips', { name: file.name }));
      if (r.lossless?.done) {
        lossless++;
        if (r.lossless.trimmed) notify(t('lossless.trimmed', { name: file.name, width: r.width ?? 0, height: r.height ?? 0 }));
      } else if (r.lossless) notify(t(`lossless.fallback.${fallbackReason(r.lossless)}`, { name: file.name }));
      // Its size as saved: the crop (of the upright image) or the whole, turned by the transform.
      const [w, h] = item.crop ? [item.crop.width, item.crop.height] : [item.image.width, item.image.height];
      const [width, height] = r.width && r.height ? [r.width, r.height] : transform.turns % 2 ? [h, w] : [w, h];
      const format = outputFormat(item.image.format, settings.output).toUpperCase();
      results.push({ name: r.name, blob: r.blob, width, height, format, transform });
    }
    setBusy(undefined);
    if (results.length === 0) return;
    const names = uniqueNames(results.map((r) => r.name));
    recordFlips(
      results.map((r, i) => ({ name: names[i], width: r.width, height: r.height, format: r.format, bytes: r.blob.size, transform: r.transform })),
      t,
      i18n.language,
    );
    if (results.length === 1) {
      saveBlob(results[0].blob, names[0]);
      setStatus(t(lossless ? 'lossless.saved' : 'saved', { name: names[0] }));
      return;
    }
    if (lossless > 0) notify(t('lossless.count', { count: lossless, total: results.length }));
    const files = await Promise.all(results.map(async (r, i) => ({ name: names[i], bytes: new Uint8Array(await r.blob.arrayBuffer()) })));
    const zipName = 'images-flipped.zip';
    saveBlob(await zipFiles(files), zipName);
    setStatus(t('zipped', { count: results.length, name: zipName }));
  }

  /** Full-resolution pixels of a region of an image's result, for the view at 100 %. */
  function regionLoader(image: OpenedImage): LoadRegion | undefined {
    const { decoded, file } = image;
    if (decoded === undefined) return undefined; // an SVG: its preview is the image itself
    return async (transform, crop, rect) => {
      const r = await (client.current ??= createFlipClient()).region({ image: decoded, file, transform, crop, rect });
      return r.kind === 'region' ? r.bitmap : undefined;
    };
  }

  function shortcut(s: Shortcut) {
    if (s === 'undo') undo();
    else if (s === 'save') void download();
    else if (s === 'zoom') setZoomed((z) => !z);
    else operate(s);
  }
  useShortcuts(items.length > 0 && cropping === undefined, shortcut);

  // Files dropped anywhere on the page, or pasted.
  useDropAndPaste((files) => void add(files), setDragging);
  useIncomingFiles((files) => void add(files));

  const lossy = items.some((i) => ['jpeg', 'webp'].includes(outputFormat(i.image.format, settings.output)) && !wantsLossless(i.image, i.crop, settings));
  const losslessJpegs = items.some((i) => wantsLossless(i.image, i.crop, settings));
  const ops: { op: Operation | 'undo' | 'reset'; key?: string }[] = [
    { op: 'flipH', key: 'H' },
    { op: 'flipV', key: 'V' },
    { op: 'rotateCCW', key: 'Shift+R' },
    { op: 'rotateCW', key: 'R' },
    { op: 'undo', key: 'Ctrl+Z' },
    { op: 'reset' },
  ];

  return (
    <div className="flip-tool">
      <p className="flip-privacy">{t('privacy')}</p>
      {/* One element before and after the first image, so that the file input keeps its focus. */}
      <div className={`${hasImages ? 'flip-add' : 'drop-zone'}${dragging ? ' drop-zone-active' : ''}`}>
        {!hasImages && <p className="drop-title">{dragging ? t('drop.active') : t('drop.title')}</p>}
        <label className={hasImages ? 'button secondary file-button' : 'button file-button'}>
          {hasImages ? t('add') : t('drop.button')}
          <input
            type="file"
            className="visually-hidden"
            multiple
            accept="image/*,.svg,.avif,.bmp"
            onChange={(e) => {
              void add([...(e.target.files ?? [])]);
              e.target.value = ''; // choosing the same file again still opens it
            }}
          />
        </label>
        <p className="field-hint">{!hasImages ? t('drop.hint') : dragging ? t('drop.active') : t('addHint')}</p>
      </div>

      <div className="flip-status" role="status" aria-live="polite">
        {busy ? (
          <>
            <progress className="flip-progress" aria-label={busy} /> {busy}
          </>
        ) : (
          status
        )}
      </div>
      {notices.length > 0 && (
        <ul className="flip-notices">
          {notices.map((n) => (
            <li key={n.key} className={n.kind === 'error' ? 'notice notice-error' : 'notice'} role={n.kind === 'error' ? 'alert' : undefined}>
              {n.text}
            </li>
          ))}
        </ul>
      )}

      {current && (
        <div className="flip-workspace">
          <section className="flip-stage" ref={stage} aria-labelledby="flip-tools-heading">
            <h2 id="flip-tools-heading" className="visually-hidden">
              {t('tools')}
            </h2>
            <Compare
              key={current.key}
              image={current.image.preview}
              width={current.image.width}
              height={current.image.height}
              transform={current.transform}
              crop={current.crop}
              name={current.image.file.name}
              motion={motion}
              zoomed={zoomed}
              onZoom={setZoomed}
              load={regionLoader(current.image)}
            />
            {items.length > 1 && (
              <fieldset className="flip-scope">
                <legend>{t('scope.legend')}</legend>
                {(['all', 'selected'] as const).map((value) => (
                  <label key={value}>
                    <input type="radio" name="flip-scope" value={value} checked={scope === value} onChange={() => chooseScope(value)} />
                    {t(`scope.${value}`)}
                  </label>
                ))}
              </fieldset>
            )}
            <div className="flip-toolbar" role="group" aria-labelledby="flip-tools-heading">
              {ops.map(({ op, key }) => (
                <button
                  key={op}
                  type="button"
                  className={op === 'undo' || op === 'reset' ? 'secondary' : undefined}
                  disabled={op === 'undo' ? steps.length === 0 : op === 'reset' && targets.every((i) => i.transform === identity)}
                  aria-keyshortcuts={key?.replace('Ctrl', 'Control')}
                  title={key && `${t(`ops.${op}`)} (${key})`}
                  onClick={() => (op === 'undo' ? undo() : op === 'reset' ? transformTargets(() => identity) : operate(op))}
                >
                  {t(`ops.${op}`)}
                </button>
              ))}
              {current.image.svg === undefined && (
                <button
                  type="button"
                  className="secondary"
                  aria-label={t('cropFor', { name: current.image.file.name })}
                  onClick={() => void crop(current.key)}
                >
                  {t('item.crop')}
                </button>
              )}
              <button
                type="button"
                className="flip-download"
                disabled={Boolean(busy)}
                onClick={() => void download()}
                aria-keyshortcuts="Control+S"
              >
                {items.length > 1 ? t('downloadZip') : t('download')}
              </button>
            </div>
          </section>
          <div className="flip-side">
            <section className="flip-controls" aria-labelledby="flip-output-heading">
              <h2 id="flip-output-heading">{t('output')}</h2>
              <SelectField
                id="flip-format"
                label={t('format')}
                value={settings.output}
                options={outputChoices.map((c) => ({ value: c, label: t(`formats.${c}`) }))}
                onChange={(output) => setSettings({ ...settings, output })}
              />
              {losslessJpegs && (
                <SelectField
                  id="flip-edges"
                  label={t('lossless.edges')}
                  hint={t('lossless.hint')}
                  value={settings.edges}
                  options={edgeChoices.map((c) => ({ value: c, label: t(`lossless.edgesOptions.${c}`) }))}
                  onChange={(edges) => setSettings({ ...settings, edges })}
                />
              )}
              {lossy && (
                <Field id="flip-quality" label={`${t('quality')}: ${Math.round(settings.quality * 100)} %`}>
                  {(aria) => (
                    <input
                      id="flip-quality"
                      type="range"
                      min={50}
                      max={100}
                      value={Math.round(settings.quality * 100)}
                      onChange={(e) => setSettings({ ...settings, quality: Number(e.target.value) / 100 })}
                      {...aria}
                    />
                  )}
                </Field>
              )}
              <SelectField
                id="flip-metadata"
                label={t('metadata')}
                hint={t('metadataHint')}
                value={settings.metadata}
                options={metadataChoices.map((c) => ({ value: c, label: t(`metadataOptions.${c}`) }))}
                onChange={(metadata) => setSettings({ ...settings, metadata })}
              />
            </section>
            <section className="flip-images" aria-labelledby="flip-images-heading">
              <h2 id="flip-images-heading">{t('images')}</h2>
              <ul className="flip-list">
                {items.map((item) => (
                  <li key={item.key} className={item === current ? 'flip-item flip-item-current' : 'flip-item'}>
                    <button
                      type="button"
                      className="flip-thumb"
                      aria-pressed={item === current}
                      aria-label={t('show', { name: item.image.file.name })}
                      onClick={() => setSelected(item.key)}
                    >
                      <Preview
                        image={item.image.preview}
                        width={item.image.width}
                        height={item.image.height}
                        transform={item.transform}
                        crop={item.crop}
                        label={t('preview', { name: item.image.file.name })}
                      />
                    </button>
                    <p className="flip-name">
                      <span>{item.image.file.name}</span>{' '}
                      <span className="field-hint">{t('size', { width: item.image.width, height: item.image.height })}</span>
                      {item.crop && <span className="field-hint"> · {t('cropped', { width: item.crop.width, height: item.crop.height })}</span>}
                    </p>
                    <p className={`flip-state flip-state-${item.outcome?.kind ?? 'ready'}`}>
                      {item.outcome?.kind === 'error' ? item.outcome.reason : t(`state.${item.outcome?.kind ?? 'ready'}`)}
                    </p>
                    <div className="flip-item-actions">
                      {item.crop && (
                        <button type="button" className="secondary" onClick={() => setCrop(item.key, undefined)}>
                          {t('cropRemove')}
                        </button>
                      )}
                      {items.length > 1 && (
                        <button
                          type="button"
                          className="secondary"
                          aria-label={t('downloadOne', { name: item.image.file.name })}
                          disabled={Boolean(busy)}
                          onClick={() => void download(item)}
                        >
                          {t('download')}
                        </button>
                      )}
                      <button
                        type="button"
                        className="secondary"
                        aria-label={t('remove', { name: item.image.file.name })}
                        onClick={() => remove([item])}
                      >
                        {t('item.remove')}
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
              <button type="button" className="secondary" onClick={() => remove(items)}>
                {t('clear')}
              </button>
            </section>
          </div>
        </div>
      )}

      {croppingItem && CropPanel && (
        <CropPanel
          key={croppingItem.key}
          image={croppingItem.image}
          onApply={(crop) => {
            setCrop(croppingItem.key, crop);
            setCropping(undefined);
          }}
          onCancel={() => setCropping(undefined)}
        />
      )}

      <section className="flip-shortcuts" aria-labelledby="flip-shortcuts-heading">
        <h2 id="flip-shortcuts-heading">{t('shortcutsTitle')}</h2>
        <dl>
          {(
            [
              ['H', 'flipH'],
              ['V', 'flipV'],
              ['R', 'rotateCW'],
              ['Shift + R', 'rotateCCW'],
              ['Ctrl/⌘ + Z', 'undo'],
              ['Ctrl/⌘ + S', 'save'],
              ['Z', 'zoom'],
            ] as const
          ).map(([keys, what]) => (
            <div key={what}>
              <dt>
                <kbd>{keys}</kbd>
              </dt>
              <dd>{t(`shortcuts.${what}`)}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}

function megabytes(bytes: number, lang: string): string {
  return `${formatNumber(bytes / 1024 / 1024, lang, { maxDecimals: 1 })} MB`;
}
