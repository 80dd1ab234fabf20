// What the app shell uses of the account: the header's button (the rest loads when it is used)
// and the theme revision its theme switch follows. Both are in every page, so this stays tiny.
export { AccountButton } from './AccountButton';
export { signedInScript, useThemeRevision } from './session';
