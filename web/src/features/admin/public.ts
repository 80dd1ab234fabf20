// What the rest of the front end may use of the operator's dashboard: the prerender step
// renders its page in each language.
import './messages';

export { AdminApp } from './AdminApp';
export { adminPath } from './path';
