// The speed calculator's form: what the visitor typed and chose, and how it sits in the query
// string (`?d=150&t=2:30:00`, `?legs=d:60,t:1:00:00;v:40,t:1:30:00`). Texts stay as typed;
// numbers and clock times go into the link in JavaScript notation, so a link made on a German
// page shows `1,5` there and `1.5` on an English one.
import { decimalSeparator, parseNumber } from '../../../lib/number';
import { buildSearch, fromParam, pick, toParam, type QueryCodec } from '../../../lib/query';
import { distanceUnitIds, type DistanceUnit } from './distance';
import { paceUnitIds, type PaceUnit } from './pace';
import type { Quantity } from './solve';
import { parseTime, type TimeFormat } from './time';
import { speedUnitIds, type SpeedUnit } from './units';
import { defaultPrecision, precisionChoices, type Precision } from '../../../calculator/logic/precision';

/** A speed field takes a speed, or a pace typed as a time per km or per mile. */
export type SpeedOrPaceUnit = SpeedUnit | PaceUnit;
export const speedOrPaceUnitIds: readonly SpeedOrPaceUnit[] = [...speedUnitIds, ...paceUnitIds];

/** What to compute: one quantity, or whichever field is left empty. */
export type Target = 'auto' | Quantity;
export const targets: readonly Target[] = ['auto', 'speed', 'distance', 'time'];

export const timeFormats: readonly TimeFormat[] = ['hms', 'hours'];

/** A leg is known by its distance and time, or by its speed and time. */
export type LegMode = 'dt' | 'vt';
export const legModes: readonly LegMode[] = ['dt', 'vt'];

export interface LegForm {
  /** Stable React key; not part of the link. */
  key: number;
  mode: LegMode;
  /** The distance (mode dt) or the speed (mode vt), as typed. */
  value: string;
  time: string;
}

export interface SpeedForm {
  target: Target;
  speedUnit: SpeedOrPaceUnit;
  distanceUnit: DistanceUnit;
  timeFormat: TimeFormat;
  precision: Precision;
  /** Field texts, as typed. */
  speed: string;
  distance: string;
  time: string;
  legs: readonly LegForm[];
  legDistanceUnit: DistanceUnit;
  legSpeedUnit: SpeedOrPaceUnit;
  legTimeFormat: TimeFormat;
}

export const MAX_LEGS = 20;

export const emptyLeg = (key: number): LegForm => ({ key, mode: 'dt', value: '', time: '' });

export const defaultLegs: readonly LegForm[] = [emptyLeg(1), emptyLeg(2)];

export const defaultForm: SpeedForm = {
  target: 'auto',
  speedUnit: 'km-h',
  distanceUnit: 'km',
  timeFormat: 'hms',
  precision: defaultPrecision,
  speed: '',
  distance: '',
  time: '',
  legs: defaultLegs,
  legDistanceUnit: 'km',
  legSpeedUnit: 'km-h',
  legTimeFormat: 'hms',
};

/** The solve part back to its defaults; the legs are left alone. */
export function resetSolve(form: SpeedForm): SpeedForm {
  return { ...defaultForm, legs: form.legs, legDistanceUnit: form.legDistanceUnit, legSpeedUnit: form.legSpeedUnit, legTimeFormat: form.legTimeFormat };
}

/** The legs back to their defaults; the solve part is left alone. */
export function resetLegs(form: SpeedForm): SpeedForm {
  return { ...form, legs: defaultLegs, legDistanceUnit: defaultForm.legDistanceUnit, legSpeedUnit: defaultForm.legSpeedUnit, legTimeFormat: defaultForm.legTimeFormat };
}

export function speedCodec(lang: string): QueryCodec<SpeedForm> {
  return {
    decode(params) {
      const target = pick(params, 'solve', targets, defaultForm.target);
      const text = (key: string, quantity: Quantity) => {
        const v = params.get(key);
        return v === null || quantity === target ? '' : textFromParam(v, lang);
      };
      const legs = params.get('legs');
      return {
        target,
        speedUnit: pick(params, 'vu', speedOrPaceUnitIds, defaultForm.speedUnit),
        distanceUnit: pick(params, 'du', distanceUnitIds, defaultForm.distanceUnit),
        timeFormat: pick(params, 'tf', timeFormats, defaultForm.timeFormat),
        precision: pick(params, 'dp', precisionChoices, defaultPrecision),
        speed: text('v', 'speed'),
        distance: text('d', 'distance'),
        time: text('t', 'time'),
        legs: legs === null ? defaultLegs : legsFromParam(legs, lang),
        legDistanceUnit: pick(params, 'lu', distanceUnitIds, defaultForm.legDistanceUnit),
        legSpeedUnit: pick(params, 'lv', speedOrPaceUnitIds, defaultForm.legSpeedUnit),
        legTimeFormat: pick(params, 'lt', timeFormats, defaultForm.legTimeFormat),
      };
    },
    encode(form) {
      // The field being computed shows a result, not what was typed there: it stays out.
      const text = (value: string, quantity: Quantity) => (quantity === form.target ? '' : textToParam(value, lang));
      return buildSearch([
        ['solve', form.target, defaultForm.target],
        ['v', text(form.speed, 'speed')],
        ['vu', form.speedUnit, defaultForm.speedUnit],
        ['d', text(form.distance, 'distance')],
        ['du', form.distanceUnit, defaultForm.distanceUnit],
        ['t', text(form.time, 'time')],
        ['tf', form.timeFormat, defaultForm.timeFormat],
        ['dp', form.precision, defaultPrecision],
        ['legs', legsToParam(form.legs, lang), legsToParam(defaultLegs, lang)],
        ['lu', form.legDistanceUnit, defaultForm.legDistanceUnit],
        ['lv', form.legSpeedUnit, defaultForm.legSpeedUnit],
        ['lt', form.legTimeFormat, defaultForm.legTimeFormat],
      ]);
    },
  };
}

/** parseNumber for one language, in the form parseTime takes. */
export const numberIn = (lang: string) => (text: string) => {
  const n = parseNumber(text, lang);
  return n.ok ? n.value : undefined;
};

// A clock time as it goes into a link: fields trimmed, the fraction of seconds after a dot.
const canonicalClock = /^\d+(:\d+){1,2}(\.\d+)?$/;

/**
 * A field's text as it goes into the query string: a number in JavaScript notation, a valid
 * clock time (`1:02:03.5`) with a dot before the fraction, anything else as typed.
 */
export function textToParam(text: string, lang: string): string {
  if (text.includes(':') && parseTime(text, 'hms', numberIn(lang)).ok) {
    return text.split(':').map((f) => f.trim()).join(':').replace(',', '.');
  }
  return toParam(text, lang);
}

/** A query-string value as the field shows it in `lang`. */
export function textFromParam(param: string, lang: string): string {
  if (canonicalClock.test(param)) return param.replace('.', decimalSeparator(lang));
  return fromParam(param, lang);
}

// Legs: `d:60,t:1:00:00;v:40,t:1:30:00`: legs split by `;`, fields by `,`, each field a key
// (d distance, v speed, t time) and its text after the first `:`. Texts kept as typed may hold
// these characters, so `%`, `,` and `;` in them are escaped as %25, %2C and %3B.
const escapeText = (s: string) => s.replace(/[%,;]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const unescapeText = (s: string) => s.replace(/%(25|2C|3B)/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

export function legsToParam(legs: readonly LegForm[], lang: string): string {
  return legs
    .map((leg) => `${leg.mode === 'vt' ? 'v' : 'd'}:${escapeText(textToParam(leg.value, lang))},t:${escapeText(textToParam(leg.time, lang))}`)
    .join(';');
}

export function legsFromParam(param: string, lang: string): LegForm[] {
  const legs = param
    .split(';')
    .slice(0, MAX_LEGS)
    .map((part, i): LegForm => {
      const leg = emptyLeg(i + 1);
      for (const field of part.split(',')) {
        const colon = field.indexOf(':');
        if (colon === -1) continue;
        const key = field.slice(0, colon);
        const text = textFromParam(unescapeText(field.slice(colon + 1)), lang);
        if (key === 'd' || key === 'v') {
          leg.mode = key === 'v' ? 'vt' : 'dt';
          leg.value = text;
        } else if (key === 't') {
          leg.time = text;
        }
      }
      return leg;
    });
  return legs;
}
