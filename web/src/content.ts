// Long-form text of a page (what a calculator computes, how, worked examples), written per
// locale in Markdown: web/content/{page}/{code}.md. It is rendered to HTML when the site is
// prerendered and travels in the page's payload, so it is in the HTML before any script runs
// and never in a JS bundle.
import { Marked, type Tokens } from 'marked';
import type { LocaleCode, PageName } from './site';

const files = import.meta.glob<string>('../content/*/*.md', { query: '?raw', import: 'default', eager: true });

/** The pages that have long-form content. */
export const contentPages = [...new Set(Object.keys(files).map((f) => f.split('/')[2]))] as PageName[];

/** A heading's anchor: its text, lower-cased, with runs of anything but letters and digits as "-". */
export function slug(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** Renders Markdown with an id on every heading, so that a section can be linked. */
export function renderMarkdown(markdown: string): string {
  const ids = new Map<string, number>();
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth }: Tokens.Heading) {
        const html = this.parser.parseInline(tokens);
        const base = slug(html) || 'section';
        const n = (ids.get(base) ?? 0) + 1;
        ids.set(base, n);
        const id = n === 1 ? base : `${base}-${n}`;
        return `<h${depth} id="${id}">${html}</h${depth}>\n`;
      },
    },
  });
  const html = marked.parse(markdown, { async: false });
  // The page's only <h1> is its title; content starts at <h2>.
  if (/<h1[\s>]/.test(html)) throw new Error('content must not contain a level-1 heading');
  return html;
}

/** The rendered content of a page in a locale, if the page has any. */
export function pageContent(page: PageName, code: LocaleCode): string | undefined {
  const markdown = files[`../content/${page}/${code}.md`];
  if (markdown === undefined) {
    if (contentPages.includes(page)) throw new Error(`content of ${page} lacks the ${code} version`);
    return undefined;
  }
  return renderMarkdown(markdown);
}
