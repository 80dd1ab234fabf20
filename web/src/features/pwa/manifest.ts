// The web app manifest of each language: what makes the site installable as an app, named and
// described in that language, starting at that language's home. The prerender step writes one
// per locale beside its home page; every page links its own.
import { defaultLocale, pagePath, toolPages, type LocaleCode, type ToolName } from '../../lib/site';
import { sharePath } from './logic/routing';

/** The app's colours, light and dark: the title bar (theme) and the splash screen (background). */
export const appColors = {
  light: { theme: '#0f5fa8', background: '#ffffff' },
  dark: { theme: '#1a212c', background: '#10151d' },
} as const;

/** Where a locale's manifest is served: beside its home page. */
export function manifestPath(code: LocaleCode): string {
  return code === defaultLocale ? '/manifest.webmanifest' : `${pagePath('index', code)}/manifest.webmanifest`;
}

/** The app's icons (web/public/icons, made by web/scripts/icons.mjs from favicon.svg). */
export const icons = [
  { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
  { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
];


interface Text {
  name: string;
  description: string;
  /** A tool's short name in the locale (its nav label). */
  tool: (name: ToolName) => string;
}

/** The image types the flipper opens (MIME type → file extensions), for the share target and file handlers. */
export type ImageTypes = Record<string, string[]>;

/**
 * The manifest of a locale. One app whatever the language (one id, the whole site in scope, so
 * that switching language stays in the app); the language decides its text and where it starts.
 */
export function buildManifest(code: LocaleCode, lang: string, text: Text, imageTypes: ImageTypes) {
  return {
    id: '/',
    name: text.name,
    short_name: text.name,
    description: text.description,
    lang,
    dir: 'ltr',
    start_url: pagePath('index', code),
    scope: '/',
    display: 'standalone',
    theme_color: appColors.light.theme,
    background_color: appColors.light.background,
    // w3c/manifest#1207: the colours a dark system theme uses instead.
    color_scheme_dark: { theme_color: appColors.dark.theme, background_color: appColors.dark.background },
    icons,
    // Installed, the app takes images shared to it and opens image files: into the flipper.
    share_target: {
      action: `${sharePath}?lang=${code}`,
      method: 'POST',
      enctype: 'multipart/form-data',
      params: { files: [{ name: 'images', accept: Object.keys(imageTypes) }] },
    },
    file_handlers: [{ action: pagePath('flip-image', code), accept: imageTypes }],
    shortcuts: toolPages.map(({ name }) => ({
      name: text.tool(name),
      url: pagePath(name, code),
      icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
    })),
  };
}
