// From the form's texts to a result: parse each field in the page's language and hand the
// numbers to the pure area modules. Empty fields are "not entered"; text that is not a number
// is NaN, which computeArea reports as notANumber at its field.
import { computeArea } from './area';
import { polygonAreaFromText } from './polygon';
import type { AreaResult } from './result';
import { shapeSpec } from './shapes';
import { parseNumber } from '../../../lib/number';
import { numberIn, type AreaForm } from './state';

/** The result for the form, or undefined while nothing has been entered. */
export function calculate(form: AreaForm, lang: string): AreaResult | undefined {
  const texts = form.texts;
  if (form.shape === 'polygon') {
    const text = texts.vertices ?? '';
    return text.trim() ? polygonAreaFromText(text, numberIn(lang)) : undefined;
  }
  const fields = shapeSpec(form.shape).fields;
  if (fields.every((f) => !texts[f.id]?.trim())) return undefined;
  const inputs = Object.fromEntries(
    fields.map((f) => {
      const text = texts[f.id]?.trim() ?? '';
      if (text === '') return [f.id, undefined];
      const n = parseNumber(text, lang);
      return [f.id, n.ok ? n.value : Number.NaN];
    }),
  );
  return computeArea(form.shape, inputs, { angleUnit: form.angleUnit });
}
