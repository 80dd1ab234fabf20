import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n';
import { locales, pagePath, toolPages, type ToolName } from '../../lib/site';
import { appColors, buildManifest, icons, manifestPath } from './manifest';

const web = join(__dirname, '../../..');

async function manifestOf(code: string) {
  const i18n = await createI18n(code);
  const lang = locales.find((l) => l.code === code)!.lang;
  const text = {
    name: i18n.t('site.name'),
    description: i18n.t('pages.index.description'),
    tool: (name: ToolName) => i18n.t(`pages.${name}.label`),
  };
  return { manifest: buildManifest(code, lang, text, { 'image/png': ['.png'] }), text, lang };
}

describe('the web app manifest', () => {
  for (const { code } of locales) {
    it(`of ${code} is in its language and starts at its home`, async () => {
      const { manifest, text, lang } = await manifestOf(code);
      expect(manifest.lang).toBe(lang);
      expect(manifest.description).toBe(text.description);
      expect(manifest.start_url).toBe(pagePath('index', code));
      expect(manifest.shortcuts.map((s) => s.name)).toEqual(toolPages.map((p) => text.tool(p.name)));
      expect(manifest.shortcuts.map((s) => s.url)).toEqual(toolPages.map((p) => pagePath(p.name, code)));
      expect(manifestPath(code)).toBe(code === 'en' ? '/manifest.webmanifest' : `/${code}/manifest.webmanifest`);
    });
  }

  it('is one app whatever the language: one id, the whole site in scope', async () => {
    const all = await Promise.all(locales.map((l) => manifestOf(l.code)));
    expect(new Set(all.map((m) => m.manifest.id))).toEqual(new Set(['/']));
    expect(new Set(all.map((m) => m.manifest.scope))).toEqual(new Set(['/']));
  });

  it('has installable icons, maskable ones included, and every icon file exists', () => {
    for (const purpose of ['any', 'maskable']) {
      for (const size of ['192x192', '512x512']) {
        expect(icons.some((i) => i.purpose === purpose && i.sizes === size && i.type === 'image/png')).toBe(true);
      }
    }
    for (const icon of icons) expect(existsSync(join(web, 'public', icon.src))).toBe(true);
    expect(existsSync(join(web, 'public/icons/apple-touch-icon.png'))).toBe(true);
  });

  it("has the page's own colours, light and dark", () => {
    const css = readFileSync(join(web, 'src/app/styles.css'), 'utf8');
    const dark = css.slice(css.indexOf(':root[data-theme=\'dark\']'));
    expect(css.slice(0, css.indexOf('@media'))).toContain(`--bg: ${appColors.light.background};`);
    expect(dark).toContain(`--bg: ${appColors.dark.background};`);
    expect(dark).toContain(`--surface: ${appColors.dark.theme};`);
    expect(css.slice(0, css.indexOf('@media'))).toContain(`--accent: ${appColors.light.theme};`);
  });
});
