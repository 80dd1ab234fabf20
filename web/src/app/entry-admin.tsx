// Boots the operator's dashboard (/admin, /{code}/admin): a bundle of its own, built apart from
// the site's (`vite build --mode admin`), so that nothing of it reaches a visitor's page.
import { hydrateRoot } from 'react-dom/client';
import { createI18n, ensureNamespaces } from '../i18n';
import { I18nProvider } from '../i18n/react';
import './styles.css'; // the site's look first: the dashboard's own stylesheet (AdminApp.tsx) builds on it
import { AdminApp, adminLocale } from '../features/admin/public';

async function main() {
  const root = document.getElementById('root');
  if (!root) return;
  const locale = adminLocale(location.pathname);
  const i18n = await createI18n(locale);
  await ensureNamespaces(i18n, ['admin']);
  hydrateRoot(
    root,
    <I18nProvider i18n={i18n}>
      <AdminApp locale={locale} />
    </I18nProvider>,
    { onRecoverableError: (err) => console.warn('Recoverable render error:', err) },
  );
  document.documentElement.dataset.hydrated = 'true';
}

main().catch((err) => console.error('The dashboard failed to start:', err));
