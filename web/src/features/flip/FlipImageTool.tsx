import { useEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/react';
import { formatNumber } from '../../lib/number';
import { MAX_DECODED_BYTES } from './protocol';
import { outputFormat, uniqueNames } from './logic/formats';
import { createFlipClient, type FlipClient } from './flipClient';
import { openImage, type OpenedImage, type Problem } from './inspect';
import { Compare } from './Compare';
import type { LoadRegion } from './Zoom';
import { render, wantsLossless } from './render';
import { hasRewriter } from './logic/lossless/registry';
import { isLossless, losslessNotice } from './losslessNotice';
import { useAnimatedResults } from './useAnimatedResults';
import { saveBlob, zipFiles } from './download';
import { recordFlips } from './history';
import { useIncomingFiles } from '../pwa/public';
import { useDropAndPaste } from './useDropAndPaste';
import { useShortcuts } from './useShortcuts';
import type { Shortcut } from './logic/shortcuts';
import { canReset, canUndo, current as shown, emptyWorkspace, workspaceReducer, type Item, type Notice, type Scope } from './logic/workspace';
import { storedScope, storeScope } from './scope';
import { AddImages } from './AddImages';
import { StatusLine } from './StatusLine';
import { ScopeChoice } from './ScopeChoice';
import { Toolbar } from './Toolbar';
import { OutputSettings } from './OutputSettings';
import { ImageList } from './ImageList';
import { ShortcutLegend } from './ShortcutLegend';

type CropPanelComponent = typeof import('./CropPanel').CropPanel;

const MAX_FILES = 50;

// The prerendered page shows no workspace, so the visit's choice of scope cannot make hydration differ.
const initialWorkspace = () => emptyWorkspace<OpenedImage>(typeof window === 'undefined' ? 'all' : storedScope());

/** The page: the workspace's state in one reducer (logic/workspace.ts); the worker and the files here. */
export function FlipImageTool({ lang }: { lang: string }) {
  const { t, i18n } = useTranslation('flip');
  const [workspace, dispatch] = useReducer(workspaceReducer<OpenedImage>, undefined, initialWorkspace);
  const { items, settings, busy, cropping } = workspace;
  // The crop step's code (the cropper) loads on its first use, not with the page: a component,
  // not part of the workspace.
  const [CropPanel, setCropPanel] = useState<CropPanelComponent>();
  const client = useRef<FlipClient>(undefined);
  const animatedResults = useAnimatedResults();
  const stage = useRef<HTMLElement>(null);
  const croppingItem = items.find((i) => i.key === cropping);
  const current = shown(workspace);
  const hasImages = current !== undefined;

  useEffect(() => () => client.current?.terminate(), []);
  // The first image brings the stage into view, its toolbar within reach at the bottom of a phone.
  useEffect(() => {
    if (hasImages) stage.current?.scrollIntoView({ block: 'nearest' });
  }, [hasImages]);

  const notify = (text: string, kind: Notice['kind'] = 'info') => dispatch({ type: 'notified', text, kind });
  const setBusy = (busy: string | undefined) => dispatch({ type: 'set', fields: { busy } });

  const problemText = (problem: Problem, file: File, frames = 0) =>
    t(`errors.${problem}`, { name: file.name || 'image', size: megabytes(file.size, lang), frames, limit: megabytes(MAX_DECODED_BYTES, lang) });

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
      if (!o.ok) notify(problemText(o.problem, o.file, o.frames), 'error');
      else {
        // A format with a rewriter keeps every frame; another says so when it is saved.
        if (o.animated && !hasRewriter(o.format, false)) notify(t('animated', { name: o.file.name }));
        dispatch({ type: 'added', image: o });
      }
    }
    setBusy(undefined);
  }

  function remove(gone: readonly Item<OpenedImage>[]) {
    for (const i of gone) if (i.image.decoded !== undefined) client.current?.forget(i.image.decoded);
    dispatch({ type: 'removed', keys: gone.map((i) => i.key) });
    animatedResults.forget(gone.map((i) => i.key));
  }

  function chooseScope(scope: Scope) {
    dispatch({ type: 'set', fields: { scope } });
    storeScope(scope);
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
    dispatch({ type: 'set', fields: { cropping: key } });
  }

  async function download(only?: Item<OpenedImage>) {
    const queue = only ? [only] : items;
    if (queue.length === 0 || busy) return;
    const worker = (client.current ??= createFlipClient());
    const results: { name: string; blob: Blob; width: number; height: number; format: string; transform: Item<OpenedImage>['transform'] }[] = [];
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
        dispatch({ type: 'downloaded', key: item.key, outcome: { kind: 'error', reason } });
        continue;
      }
      // Rewritten in its own format (done), and lossless unless some frames were compressed again.
      const done = r.lossless?.done === true;
      dispatch({ type: 'downloaded', key: item.key, outcome: { kind: isLossless(r.lossless) ? 'lossless' : 'reencoded' } });
      const written = done ? item.image.format : r.inStrips ? 'png' : outputFormat(item.image.format, settings.output);
      // A rewriter's refusal says why on its own (below); otherwise a format the browser cannot write is named.
      if (!r.lossless && written !== item.image.format && settings.output === 'same') {
        notify(t('converted', { from: item.image.format.toUpperCase(), to: written.toUpperCase(), name: file.name }));
      }
      if (item.image.animated && !done) notify(t('animatedFirstFrame', { name: file.name, format: written.toUpperCase() }));
      if (r.locationRemoved) notify(t('locationRemoved', { name: file.name }));
      if (r.inStrips) notify(t('inStrips', { name: file.name }));
      if (isLossless(r.lossless)) lossless++;
      const notice = r.lossless && losslessNotice(r.lossless, item.image.format, { name: file.name, width: r.width ?? 0, height: r.height ?? 0 });
      if (notice) notify(t(notice.key, notice.values));
      if (done && r.lossless?.done && r.lossless.frames > 1) animatedResults.keep(item, r.blob);
      // Its size as saved: the crop (of the upright image) or the whole, turned by the transform.
      const [w, h] = item.crop ? [item.crop.width, item.crop.height] : [item.image.width, item.image.height];
      const [width, height] = r.width && r.height ? [r.width, r.height] : transform.turns % 2 ? [h, w] : [w, h];
      const format = written.toUpperCase();
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
      dispatch({ type: 'set', fields: { status: t(lossless ? 'lossless.saved' : 'saved', { name: names[0] }) } });
      return;
    }
    if (lossless > 0) notify(t('lossless.count', { count: lossless, total: results.length }));
    const files = await Promise.all(results.map(async (r, i) => ({ name: names[i], bytes: new Uint8Array(await r.blob.arrayBuffer()) })));
    const zipName = 'images-flipped.zip';
    saveBlob(await zipFiles(files), zipName);
    dispatch({ type: 'set', fields: { status: t('zipped', { count: results.length, name: zipName }) } });
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
    if (s === 'undo') dispatch({ type: 'undone' });
    else if (s === 'save') void download();
    else if (s === 'zoom') dispatch({ type: 'set', fields: { zoomed: !workspace.zoomed } });
    else dispatch({ type: 'operated', op: s });
  }
  useShortcuts(items.length > 0 && cropping === undefined, shortcut);

  // Files dropped anywhere on the page, or pasted.
  useDropAndPaste(
    (files) => void add(files),
    (dragging) => dispatch({ type: 'set', fields: { dragging } }),
  );
  useIncomingFiles((files) => void add(files));

  // The quality applies to what is encoded as JPEG or WebP: not what a rewriter keeps, except the lossy parts of a WebP.
  const lossy = items.some((i) => (wantsLossless(i.image, i.crop, settings) ? i.image.lossy : ['jpeg', 'webp'].includes(outputFormat(i.image.format, settings.output))));
  const losslessJpegs = items.some((i) => i.image.format === 'jpeg' && wantsLossless(i.image, i.crop, settings));

  return (
    <div className="flip-tool">
      <p className="flip-privacy">{t('privacy')}</p>
      <AddImages compact={hasImages} dragging={workspace.dragging} onFiles={(files) => void add(files)} />
      <StatusLine busy={busy} status={workspace.status} notices={workspace.notices} />

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
              motion={workspace.motion}
              zoomed={workspace.zoomed}
              onZoom={(zoomed) => dispatch({ type: 'set', fields: { zoomed } })}
              load={regionLoader(current.image)}
              playing={animatedResults.url(current)}
            />
            {items.length > 1 && <ScopeChoice scope={workspace.scope} onChoose={chooseScope} />}
            <Toolbar
              canUndo={canUndo(workspace)}
              canReset={canReset(workspace)}
              croppable={current.image.svg === undefined ? current.image.file.name : undefined}
              onCrop={() => void crop(current.key)}
              busy={Boolean(busy)}
              several={items.length > 1}
              onDownload={() => void download()}
              dispatch={dispatch}
            />
          </section>
          <div className="flip-side">
            <OutputSettings settings={settings} losslessJpegs={losslessJpegs} lossy={lossy} dispatch={dispatch} />
            <ImageList items={items} current={current} busy={Boolean(busy)} onDownload={(item) => void download(item)} onRemove={remove} dispatch={dispatch} />
          </div>
        </div>
      )}

      {croppingItem && CropPanel && (
        <CropPanel
          key={croppingItem.key}
          image={croppingItem.image}
          onApply={(crop) => {
            dispatch({ type: 'cropped', key: croppingItem.key, crop });
            dispatch({ type: 'set', fields: { cropping: undefined } });
          }}
          onCancel={() => dispatch({ type: 'set', fields: { cropping: undefined } })}
        />
      )}

      <ShortcutLegend />
    </div>
  );
}

function megabytes(bytes: number, lang: string): string {
  return `${formatNumber(bytes / 1024 / 1024, lang, { maxDecimals: 1 })} MB`;
}
