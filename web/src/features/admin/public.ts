// What the rest of the front end may use of the operator's dashboard: the prerender step
// renders its page in each language, and its entry (app/entry-admin.tsx) hydrates it.
import './messages';

export { AdminApp } from './AdminApp';
export { adminLocale, adminPath } from './path';
