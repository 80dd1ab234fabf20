// What the rest of the front end may use of the image flipper: the tool itself (its island,
// app/islands/flip.tsx), and the image formats it opens (the installed app's file handlers and
// share target name them).
export { extensions, mimeTypes } from './logic/formats';
export { FlipImageTool } from './FlipImageTool';
