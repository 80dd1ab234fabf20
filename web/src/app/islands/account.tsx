// The header's account button; the dialog and everything behind it load when it is used.
export { AccountButton as default } from '../../features/account/public';
