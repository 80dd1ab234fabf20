// Preloads page chunks and payloads of links in view or hovered, at most `max` at a time.
export type PreloadTask = () => Promise<unknown>;

/** A queue that runs each key's task once, at most `max` concurrently. */
export function createPreloader(max = 4) {
  const seen = new Set<string>();
  const queue: Array<[string, PreloadTask]> = [];
  let running = 0;

  function pump() {
    while (running < max && queue.length > 0) {
      const [, task] = queue.shift()!;
      running++;
      task()
        .catch(() => {}) // a failed preload is retried, and handled, by the navigation
        .finally(() => {
          running--;
          pump();
        });
    }
  }

  return {
    preload(key: string, task: PreloadTask) {
      if (seen.has(key)) return;
      seen.add(key);
      queue.push([key, task]);
      pump();
    },
    get running() {
      return running;
    },
    get queued() {
      return queue.length;
    },
  };
}
