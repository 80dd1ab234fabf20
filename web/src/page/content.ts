// Long-form text of a page (what a calculator computes, how, worked examples; the FAQ, the
// privacy policy, the terms), written per locale in Markdown: web/content/{page}/{code}.md. It
// is rendered to HTML when the site is prerendered and travels in the page's payload, so it is
// in the HTML before any script runs and never in a JS bundle.
import { Marked, type Token, type Tokens } from 'marked';
import type { LocaleCode, PageName } from '../lib/site';
import type { FaqItem, PageText } from '../router/payload';

const files = import.meta.glob<string>('../../content/*/*.md', { query: '?raw', import: 'default', eager: true });

/** The pages that have long-form content. */
export const contentPages = [...new Set(Object.keys(files).map((f) => f.split('/')[3]))] as PageName[];

/** A heading's anchor: its text, lower-cased, with runs of anything but letters and digits as "-". */
export function slug(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:[a-z]+|#\d+);/g, ' ') // the entities of rendered HTML (&amp;) are not words
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** An id for a heading, unique within a page: its slug, then slug-2, slug-3... */
function idMaker(): (text: string) => string {
  const ids = new Map<string, number>();
  return (text) => {
    const base = slug(text) || 'section';
    const n = (ids.get(base) ?? 0) + 1;
    ids.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  };
}

/** Renders Markdown with an id on every heading, so that a section can be linked. */
export function renderMarkdown(markdown: string): string {
  const id = idMaker();
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth }: Tokens.Heading) {
        const html = this.parser.parseInline(tokens);
        return `<h${depth} id="${id(html)}">${html}</h${depth}>\n`;
      },
    },
  });
  // A table scrolls sideways when it is wider than the page (styles.css): a keyboard must be
  // able to reach it to scroll it.
  const html = marked.parse(markdown, { async: false }).replaceAll('<table>', '<table tabindex="0">');
  // The page's only <h1> is its title; content starts at <h2>.
  if (/<h1[\s>]/.test(html)) throw new Error('content must not contain a level-1 heading');
  return html;
}

/**
 * Reads questions and answers: every level-2 heading is a question (plain text), and what
 * follows it, up to the next, its answer. Anything else (text before the first question, other
 * headings, markup in a question) is refused, so that the page and its structured data agree.
 */
export function renderFaq(markdown: string): FaqItem[] {
  const marked = new Marked({ gfm: true });
  const id = idMaker();
  const items: { question: string; tokens: Token[] }[] = [];
  for (const token of marked.lexer(markdown)) {
    if (token.type === 'heading') {
      const h = token as Tokens.Heading;
      if (h.depth !== 2 || h.tokens.some((t) => t.type !== 'text' || /[<*_`[]/.test(t.raw))) {
        throw new Error(`a FAQ question must be a plain level-2 heading: ${h.raw.trim()}`);
      }
      items.push({ question: h.text, tokens: [] });
    } else if (items.length > 0) {
      items[items.length - 1].tokens.push(token);
    } else if (token.type !== 'space') {
      throw new Error('the FAQ must start with a question');
    }
  }
  return items.map(({ question, tokens }) => {
    const answer = marked.parser(Object.assign(tokens, { links: {} })).trim();
    if (!answer) throw new Error(`the FAQ question "${question}" has no answer`);
    return { id: id(question), question, answer };
  });
}

/** The FAQ's questions and answers in a locale. */
export function faqItems(code: LocaleCode): FaqItem[] {
  return renderFaq(markdownOf('faq', code)!);
}

/** How many questions the home page shows. */
const FAQ_TEASER = 3;

export function pageText(page: PageName, code: LocaleCode): PageText {
  if (page === 'faq') return { faq: faqItems(code) };
  if (page === 'index') return { faqTeaser: faqItems(code).slice(0, FAQ_TEASER).map(({ id, question }) => ({ id, question })) };
  const content = pageContent(page, code);
  if (content === undefined) return {};
  return tocPages.includes(page) ? { content, toc: sections(content) } : { content };
}

/** Pages long enough to open with a list of their sections. */
const tocPages: readonly PageName[] = ['privacy-policy', 'terms-conditions'];

/** The level-2 headings of rendered content (ours, from renderMarkdown), as plain text. */
export function sections(html: string): { id: string; text: string }[] {
  const decode = (s: string) =>
    s.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);
  return [...html.matchAll(/<h2 id="([^"]+)">(.*?)<\/h2>/g)].map(([, id, inner]) => ({ id: id, text: decode(inner) }));
}

/** The rendered content of a prose page in a locale, if the page has any. */
export function pageContent(page: PageName, code: LocaleCode): string | undefined {
  if (page === 'faq') return undefined; // questions and answers: faqItems
  const markdown = markdownOf(page, code);
  return markdown === undefined ? undefined : renderMarkdown(markdown);
}

function markdownOf(page: PageName, code: LocaleCode): string | undefined {
  const markdown = files[`../../content/${page}/${code}.md`];
  if (markdown === undefined && contentPages.includes(page)) throw new Error(`content of ${page} lacks the ${code} version`);
  return markdown;
}
