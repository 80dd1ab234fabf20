// What the rest of the front end uses of the installable, offline app: the prerender step writes
// each locale's manifest, every document links it and carries the app's colours, the page
// starts the service worker once idle, and the flipper takes the images the app is given.
export { appColors, buildManifest, manifestPath } from './manifest';
export { Offline } from './Offline';
export { offlinePath } from './logic/precache';
export { startOffline } from './start';
export { useIncomingFiles } from './useIncomingFiles';
