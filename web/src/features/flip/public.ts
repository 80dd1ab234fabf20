// What the rest of the front end may use of the image flipper: the image formats it opens (the
// installed app's file handlers and share target name them).
export { extensions, mimeTypes } from './logic/formats';
