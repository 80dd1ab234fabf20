import { describe, expect, it } from 'vitest';
import { contentPages, faqItems, pageContent, pageText, renderFaq, renderMarkdown, sections, slug } from './content';
import { locales, operatorPlaceholders } from '../lib/site';

const proseText = contentPages.filter((p) => p !== 'faq');

const headings = (html: string) => [...html.matchAll(/<h([2-6]) id="[^"]+">/g)].map((m) => m[1]).join('');

describe('content', () => {
  it('exists for the tools and the informational pages', () => {
    expect(contentPages).toEqual(
      expect.arrayContaining(['area-calculator', 'speed-calculator', 'flip-image', 'faq', 'privacy-policy', 'terms-conditions']),
    );
  });

  for (const page of proseText) {
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

  it('lists the sections of the legal pages, in plain text', () => {
    expect(sections(renderMarkdown('## Cookies & *storage*\n\n### Sub\n\n## Your rights'))).toEqual([
      { id: 'cookies-storage', text: 'Cookies & storage' },
      { id: 'your-rights', text: 'Your rights' },
    ]);
    expect(pageText('terms-conditions', 'ko').toc!.length).toBe(11);
    expect(pageText('area-calculator', 'en').toc).toBeUndefined();
  });

  it('refuses a level-1 heading: the page has its own', () => {
    expect(() => renderMarkdown('# Title')).toThrow(/level-1/);
  });

  it('makes anchors of any script', () => {
    expect(slug('Área e perímetro')).toBe('área-e-perímetro');
    expect(slug('What <em>is</em> it?')).toBe('what-is-it');
  });

  it('has no prose for pages without any', () => {
    expect(pageContent('index', 'en')).toBeUndefined();
    expect(pageContent('faq', 'en')).toBeUndefined();
  });

  describe('the FAQ', () => {
    const en = faqItems('en');
    it('has at least 12 questions, as many in every language, each answered', () => {
      expect(en.length).toBeGreaterThanOrEqual(12);
      for (const { code } of locales) {
        const items = faqItems(code);
        expect(items.length, code).toBe(en.length);
        for (const item of items) {
          expect(item.question, code).toMatch(/[?？]$/);
          expect(item.answer.length, `${code}: ${item.question}`).toBeGreaterThan(40);
          expect(item.answer, code).not.toMatch(/TODO|FIXME|\{\{/);
        }
        if (code !== 'en') expect(items.map((i) => i.question), code).not.toEqual(en.map((i) => i.question));
      }
    });

    it('links to pages in the reader\'s own language', () => {
      for (const { code } of locales.filter((l) => l.code !== 'en')) {
        for (const item of faqItems(code)) {
          for (const [, href] of item.answer.matchAll(/href="(\/[^"]*)"/g)) expect(href, code).toMatch(new RegExp(`^/${code}(/|$)`));
        }
      }
    });

    it('reads questions and answers, with an anchor per question', () => {
      expect(renderFaq('## Why?\n\nBecause **so**.\n\n- one\n\n## Why?\n\nAgain.')).toEqual([
        { id: 'why', question: 'Why?', answer: '<p>Because <strong>so</strong>.</p>\n<ul>\n<li>one</li>\n</ul>' },
        { id: 'why-2', question: 'Why?', answer: '<p>Again.</p>' },
      ]);
    });

    it('refuses what the page and its structured data could not agree on', () => {
      expect(() => renderFaq('Intro.\n\n## Why?\n\nBecause.')).toThrow(/start with a question/);
      expect(() => renderFaq('## Why?\n\n### Sub\n\nText')).toThrow(/plain level-2/);
      expect(() => renderFaq('## Why *this*?\n\nText')).toThrow(/plain level-2/);
      expect(() => renderFaq('## Why?\n\n## How?\n\nText')).toThrow(/no answer/);
    });

    it('gives the home page its first questions, without answers', () => {
      const teaser = pageText('index', 'jp').faqTeaser!;
      expect(teaser).toEqual(faqItems('jp').slice(0, 3).map(({ id, question }) => ({ id, question })));
    });
  });

  it('names the operator\'s details only by the tokens the server replaces', () => {
    for (const page of ['privacy-policy', 'terms-conditions'] as const) {
      for (const { code } of locales) {
        const html = pageContent(page, code)!;
        const { contactEmail, jurisdiction } = operatorPlaceholders;
        expect(html, `${page} ${code}`).toContain(`<a href="mailto:${contactEmail}">${contactEmail}</a>`);
        if (page === 'terms-conditions') expect(html, code).toContain(jurisdiction);
        const tokens = new Set(html.match(/%%[A-Z_]+%%|[\w.-]+@[\w-]+\.handy\.invalid/g));
        expect([...tokens].every((t) => t === contactEmail || t === jurisdiction), `${page} ${code}: ${[...tokens].join(' ')}`).toBe(true);
      }
    }
  });
});
