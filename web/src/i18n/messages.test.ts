// Every locale has every key of English, in every namespace (i18n/locales/{code}.json and every
// other folder's locales/{code}.json, named after that folder), translated for real, with its
// placeholders intact.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { locales, pages } from '../lib/site';
import allow from './allow-identical.json';

const src = join(__dirname, '..');
const root = join(src, 'i18n/locales');
const jsonNames = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
const owners = (dir: string) =>
  readdirSync(join(src, dir), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(src, dir, d.name, 'locales')))
    .map((d) => ({ ns: d.name, dir: join(src, dir, d.name, 'locales') }));
const namespaces = [{ ns: 'translation', dir: root }, ...owners('.').filter((o) => o.ns !== 'i18n'), ...owners('features')];
type Messages = Record<string, unknown>;
const readIn = (dir: string, code: string) => JSON.parse(readFileSync(join(dir, `${code}.json`), 'utf8')) as Messages;
const read = (code: string) => readIn(root, code);

function flatten(obj: Record<string, unknown>, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object') flatten(v as Record<string, unknown>, key).forEach((s, k2) => out.set(k2, s));
    else out.set(key, String(v));
  }
  return out;
}

const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('messages', () => {
  it('has messages for every page of the site table', () => {
    const named = Object.keys(read('en').pages as Messages).sort();
    expect(named).toEqual(pages.map((p) => p.name).sort());
  });

  for (const { ns, dir } of namespaces) {
    describe(ns, () => {
      const en = flatten(readIn(dir, 'en'));
      // allow-identical.json names keys of `translation` plainly and others as ns:key.
      const allowed = (code: string, k: string) => {
        const name = ns === 'translation' ? k : `${ns}:${k}`;
        const byLocale: Record<string, string[]> = allow.byLocale;
        return allow.keys.includes(name) || (byLocale[code] ?? []).includes(name);
      };

      it('has one file per locale of the site table, and no other', () => {
        expect(jsonNames(dir).sort()).toEqual(locales.map((l) => l.code).sort());
      });

      for (const { code } of locales.filter((l) => l.code !== 'en')) {
        describe(code, () => {
          const messages = flatten(readIn(dir, code));

          it('has every key of English and no other', () => {
            expect([...en.keys()].filter((k) => !messages.has(k))).toEqual([]);
            expect([...messages.keys()].filter((k) => !en.has(k))).toEqual([]);
          });

          it('translates every string (brand names and words spelled alike excepted)', () => {
            const same = [...en].filter(([k, v]) => messages.get(k) === v && !allowed(code, k));
            expect(same.map(([k]) => k)).toEqual([]);
          });

          it('keeps the placeholders and leaves nothing empty', () => {
            for (const [k, v] of en) {
              expect(placeholders(messages.get(k) ?? ''), `${code}: ${k}`).toEqual(placeholders(v));
              expect(messages.get(k)?.trim(), `${code}: ${k}`).not.toBe('');
            }
          });
        });
      }
    });
  }
});
