// What the rest of the front end uses of the installable app: the prerender step writes each
// locale's manifest, and every document links it and carries the app's colours.
export { appColors, buildManifest, manifestPath } from './manifest';
