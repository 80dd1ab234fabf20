// The page's side of the worker: one worker, and a promise per request. The worker starts with
// the client (when the first file comes in), so that it loads while the file is being read.
import type { FlipRequest, RegionRequest, WorkerRequest, WorkerResponse } from './protocol';

export type Decoded = Extract<WorkerResponse, { kind: 'opened' }>;
export type FlipResult = Extract<WorkerResponse, { kind: 'done' }>;
export type FlipFailure = Extract<WorkerResponse, { kind: 'error' }>;
export type Region = Extract<WorkerResponse, { kind: 'region' }>;
type Answer = Decoded | FlipResult | Region | FlipFailure;

export interface FlipClient {
  /** Decodes a file in the worker, which keeps its pixels under the returned handle. */
  open(file: Blob, previewSide: number): Promise<(Decoded & { image: number }) | FlipFailure>;
  flip(request: Omit<FlipRequest, 'id' | 'kind'>, onProgress?: (stage: string) => void): Promise<FlipResult | FlipFailure>;
  /** A rectangle of the result at full resolution, for the view at 100 %. */
  region(request: Omit<RegionRequest, 'id' | 'kind'>): Promise<Region | FlipFailure>;
  /** The visitor removed the image: its pixels can go. */
  forget(image: number): void;
  terminate(): void;
}

export function createFlipClient(): FlipClient {
  let worker: Worker | undefined;
  let next = 1;
  const pending = new Map<number, { resolve: (r: Answer) => void; progress?: (stage: string) => void }>();

  const start = () => {
    const w = new Worker(new URL('./flip.worker.ts', import.meta.url), { type: 'module' });
    w.onmessage = (e: MessageEvent<WorkerResponse>) => {
      const m = e.data;
      const p = pending.get(m.id);
      if (!p) return;
      if (m.kind === 'progress') return p.progress?.(m.stage);
      pending.delete(m.id);
      p.resolve(m);
    };
    // A worker that dies (out of memory on a huge image) fails every request it held; the next
    // request starts a new one, which decodes from the file again.
    w.onerror = (e) => {
      e.preventDefault();
      for (const [id, p] of pending) p.resolve({ id, kind: 'error', error: 'tooLarge', detail: e.message });
      pending.clear();
      w.terminate();
      worker = undefined;
    };
    return w;
  };

  worker = start();

  function send<T extends Answer>(request: WorkerRequest & { id: number }, progress?: (stage: string) => void): Promise<T | FlipFailure> {
    worker ??= start();
    return new Promise((resolve) => {
      pending.set(request.id, { resolve: resolve as (r: Answer) => void, progress });
      worker!.postMessage(request);
    });
  }

  return {
    async open(file, previewSide) {
      const id = next++;
      const r = await send<Decoded>({ kind: 'open', id, image: id, file, previewSide });
      return r.kind === 'opened' ? { ...r, image: id } : r;
    },
    flip(request, onProgress) {
      return send<FlipResult>({ ...request, kind: 'flip', id: next++ }, onProgress);
    },
    region(request) {
      return send<Region>({ ...request, kind: 'region', id: next++ });
    },
    forget(image) {
      worker?.postMessage({ kind: 'forget', image } satisfies WorkerRequest);
    },
    terminate() {
      worker?.terminate();
      worker = undefined;
    },
  };
}
