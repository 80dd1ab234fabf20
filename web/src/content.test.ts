import { describe, expect, it } from 'vitest';
import { contentPages, pageContent, renderMarkdown, slug } from './content';
import { locales } from './site';

const headings = (html: string) => [...html.matchAll(/<h([2-6]) id="[^"]+">/g)].map((m) => m[1]).join('');

describe('content', () => {
  it('exists for the calculators', () => {
    expect(contentPages).toEqual(expect.arrayContaining(['area-calculator', 'speed-calculator']));
  });

  for (const page of contentPages) {
    describe(page, () => {
      const en = pageContent(page, 'en')!;
      it('has every language, each with the outline of the English text', () => {
        expect(headings(en).length).toBeGreaterThan(3);
        for (const { code } of locales) {
          const html = pageContent(page, code);
          expect(html, code).toBeDefined();
          expect(headings(html!), code).toBe(headings(en));
        }
      });

      it('leaves no placeholder or English page behind', () => {
        for (const { code } of locales.filter((l) => l.code !== 'en')) {
          const html = pageContent(page, code)!;
          expect(html, code).not.toBe(en);
          expect(html, code).not.toMatch(/TODO|FIXME|[Ll]orem ipsum|\{\{/);
        }
      });
    });
  }

  it('gives every heading an id, unique within the page', () => {
    const html = renderMarkdown('## Worked examples\n\n### Circle\n\n### Circle\n\n## 計算の例');
    expect([...html.matchAll(/id="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'worked-examples',
      'circle',
      'circle-2',
      '計算の例',
    ]);
  });

  it('refuses a level-1 heading: the page has its own', () => {
    expect(() => renderMarkdown('# Title')).toThrow(/level-1/);
  });

  it('makes anchors of any script', () => {
    expect(slug('Área e perímetro')).toBe('área-e-perímetro');
    expect(slug('What <em>is</em> it?')).toBe('what-is-it');
  });

  it('has no content for pages without any', () => {
    expect(pageContent('index', 'en')).toBeUndefined();
  });
});
