// The banner links the privacy policy's section on the tag manager: each locale's `policyAnchor`
// must be the id its own policy gives that heading (a heading's id is its slug, so it changes
// with the wording).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageContent } from '../../page/content';
import { locales } from '../../lib/site';

const anchor = (code: string) => (JSON.parse(readFileSync(join(__dirname, 'locales', `${code}.json`), 'utf8')) as { policyAnchor: string }).policyAnchor;

describe('the banner\'s link to the privacy policy', () => {
  for (const { code } of locales) {
    it(`names a section of the ${code} policy that mentions consent`, () => {
      const html = pageContent('privacy-policy', code)!;
      const heading = new RegExp(`<h2 id="${anchor(code)}">`);
      expect(html).toMatch(heading);
      const section = html.slice(html.search(heading)).split('<h2 ', 2)[1];
      expect(section).toContain('<code>consent</code>');
    });
  }
});
