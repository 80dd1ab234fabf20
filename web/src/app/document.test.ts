import { signedInScript } from '../features/account/public';
import { themeScript } from '../theme/theme';
import { describe, expect, it } from 'vitest';
import { renderDocument, scriptJson } from './document';

describe('document', () => {
  it('keeps JSON data inert inside a script element', () => {
    const json = scriptJson({ s: '</script><!-- \u2028' });
    expect(json).not.toMatch(/<\/script|<!--/);
    expect(JSON.parse(json)).toEqual({ s: '</script><!-- \u2028' });
  });

  it('escapes head text and attributes', () => {
    const html = renderDocument({
      head: {
        title: 'A <b> & "c"',
        description: 'd"><script>',
        lang: 'de',
        canonical: 'https://x/de',
        alternates: [{ hreflang: 'x-default', href: 'https://x/' }],
        ogLocale: 'de_DE',
        ogLocaleAlternates: ['en_US'],
      },
      siteName: 'Handy Tools',
      body: '<p>hi</p>',
      assets: { entry: '/assets/e.js', preload: ['/assets/p.js'], styles: ['body{margin:0}'] },
    });
    expect(html).toContain('<title>A &lt;b&gt; &amp; &quot;c&quot;</title>');
    expect(html).toContain('content="d&quot;&gt;&lt;script&gt;"');
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<link rel="alternate" hreflang="x-default" href="https://x/">');
    // One inline script, the theme's and the account's mark, which the server allows by hash.
    expect(html.match(/<script(?! type="module" src)/g)).toEqual(['<script']);
    expect(html).toContain(`<script>${themeScript}${signedInScript}</script>`);
    expect(html).toContain('<style>body{margin:0}</style>');
  });
});
