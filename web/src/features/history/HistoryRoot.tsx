// The history chunk, loaded by the header's button when it is used: it mounts the panel in a
// root of its own, with the history's words, and opens the history's data.
import { createRoot } from 'react-dom/client';
import { ensureNamespaces } from '../../i18n';
import { I18nProvider } from '../../i18n/react';
import type { I18n } from '../../i18n/translator';
import { createStore, useStore } from '../../lib/store';
import { HistoryPanel } from './HistoryPanel';
import { current, history } from './runtime';
import { resetUnseen } from './unseen';

const panel = createStore({ open: false });
let mounted = false;

// The panel shows whichever history is in use: signing in or out while it is open switches it.
function HistoryRoot() {
  const { open } = useStore(panel);
  const store = useStore(current);
  return store && open ? <HistoryPanel key={store.where + store.owner} store={store} onClose={() => panel.set({ open: false })} /> : null;
}

function mount(i18n: I18n) {
  if (mounted) return;
  mounted = true;
  const el = document.createElement('div');
  el.id = 'history-root';
  document.body.append(el);
  createRoot(el).render(
    <I18nProvider i18n={i18n}>
      <HistoryRoot />
    </I18nProvider>,
  );
  // A page in another language (the back button while the panel is open): its words follow.
  i18n.subscribe(() => void ensureNamespaces(i18n, ['history']).then(() => panel.set((s) => ({ ...s }))));
}

/** Opens the panel; the badge starts again from zero. */
export async function open(i18n: I18n): Promise<void> {
  await Promise.all([history(), ensureNamespaces(i18n, ['history'])]);
  mount(i18n);
  resetUnseen();
  panel.set({ open: true });
}
