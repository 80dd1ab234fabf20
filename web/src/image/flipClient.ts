// The page's side of the worker: one worker, started on first use, and a promise per request.
import type { FlipRequest, FlipResponse } from './protocol';

export type FlipResult = Extract<FlipResponse, { kind: 'done' }>;
export type FlipFailure = Extract<FlipResponse, { kind: 'error' }>;

export interface FlipClient {
  flip(request: Omit<FlipRequest, 'id'>, onProgress?: (stage: string) => void): Promise<FlipResult | FlipFailure>;
  terminate(): void;
}

export function createFlipClient(): FlipClient {
  let worker: Worker | undefined;
  let next = 1;
  const pending = new Map<number, { resolve: (r: FlipResult | FlipFailure) => void; progress?: (stage: string) => void }>();

  const start = () => {
    const w = new Worker(new URL('./flip.worker.ts', import.meta.url), { type: 'module' });
    w.onmessage = (e: MessageEvent<FlipResponse>) => {
      const m = e.data;
      const p = pending.get(m.id);
      if (!p) return;
      if (m.kind === 'progress') return p.progress?.(m.stage);
      pending.delete(m.id);
      p.resolve(m);
    };
    // A worker that dies (out of memory on a huge image) fails every request it held.
    w.onerror = (e) => {
      e.preventDefault();
      for (const [id, p] of pending) p.resolve({ id, kind: 'error', error: 'tooLarge', detail: e.message });
      pending.clear();
      w.terminate();
      worker = undefined;
    };
    return w;
  };

  return {
    flip(request, onProgress) {
      worker ??= start();
      const id = next++;
      return new Promise((resolve) => {
        pending.set(id, { resolve, progress: onProgress });
        worker!.postMessage({ ...request, id } satisfies FlipRequest, [request.bytes]);
      });
    },
    terminate() {
      worker?.terminate();
      worker = undefined;
    },
  };
}
