// Boots a prerendered page: its islands come alive as each says (./islands.ts), and once those
// due at load and at idle are, the runtime starts (navigation, preloading, the build check, the
// analytics, consent and the service worker). This module is all a page loads before that: a
// page whose islands all wait for idle loads React only then.
import { bootDataId, type BootData } from './boot';
import { createIslands } from './islands';
import './styles.css';

function main() {
  const data = document.getElementById(bootDataId)?.textContent;
  const root = document.getElementById('root');
  if (!data || !root) return; // not an app page: nothing to bring alive
  const boot = JSON.parse(data) as BootData;
  let live: Promise<import('./live').Live> | undefined;
  const alive = () => (live ??= import('./live').then((l) => l.bringAlive(boot)));
  const islands = createIslands(alive);
  void islands
    .watch(root)
    .then(() => Promise.all([alive(), import('./runtime')]))
    .then(([l, runtime]) => runtime.start(boot, l, islands))
    .catch((err: unknown) => console.error('Handy Tools failed to start:', err));
}

main();
