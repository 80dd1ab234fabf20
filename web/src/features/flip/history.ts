// Recording a downloaded flip in the history: the file's name, its size in pixels and bytes,
// its format and what was done, never its pixels.
import type { TFunction } from '../../i18n/translator';
import { localeOf, type LocaleCode } from '../../lib/site';
import { steps, type Transform } from '../../lib/image/transform';
import { saveToHistory } from '../history/public';

export interface Downloaded {
  name: string;
  width: number;
  height: number;
  /** Output format, upper case: JPEG, PNG, WEBP, SVG. */
  format: string;
  bytes: number;
  /** What was done to it. */
  transform: Transform;
}

export function recordFlips(files: Downloaded[], t: TFunction<'flip'>, locale: LocaleCode): void {
  const lang = localeOf(locale).lang;
  const kb = new Intl.NumberFormat(lang, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 0 });
  for (const f of files) {
    const done = steps(f.transform).map((op) => t(`shortcuts.${op}`));
    const detail = [`${f.width} × ${f.height} px`, f.format, ...done, kb.format(Math.max(1, Math.round(f.bytes / 1000)))].join(' · ');
    void saveToHistory({ tool: 'flip', title: f.name, query: '', detail });
  }
}
