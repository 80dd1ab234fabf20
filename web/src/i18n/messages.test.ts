// Every locale has every key of en.json, translated for real, with its placeholders intact.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { locales, pages } from '../site';
import allow from './allow-identical.json';

const dir = join(__dirname, '../locales');
const read = (code: string) => JSON.parse(readFileSync(join(dir, `${code}.json`), 'utf8'));

function flatten(obj: Record<string, unknown>, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object') flatten(v as Record<string, unknown>, key).forEach((s, k2) => out.set(k2, s));
    else out.set(key, String(v));
  }
  return out;
}

const en = flatten(read('en'));
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('messages', () => {
  it('has one file per locale of the site table, and no other', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
    expect(files.sort()).toEqual(locales.map((l) => l.code).sort());
  });

  it('has messages for every page of the site table', () => {
    const named = Object.keys(read('en').pages).sort();
    expect(named).toEqual(pages.map((p) => p.name).sort());
  });

  for (const { code } of locales.filter((l) => l.code !== 'en')) {
    describe(code, () => {
      const messages = flatten(read(code));

      it('has every key of en.json and no other', () => {
        expect([...en.keys()].filter((k) => !messages.has(k))).toEqual([]);
        expect([...messages.keys()].filter((k) => !en.has(k))).toEqual([]);
      });

      it('translates every string (brand names excepted)', () => {
        const same = [...en].filter(([k, v]) => messages.get(k) === v && !allow.keys.includes(k));
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
