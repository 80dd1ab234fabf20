// The header's History button; the panel and the data layer load when it is used.
export { HistoryButton as default } from '../../features/history/public';
