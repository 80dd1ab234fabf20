// From the form's texts to results: parse each field in the page's language (numbers, clock
// times, paces), hand SI values to the pure solve and averageOverLegs, and keep each quantity
// as an exact ratio for display. Going through m/s rounds twice (150 km in 2.5 h would be
// 60.00000000000001 km/h); one fraction per displayed value rounds once, so it is 60.
import { lengthUnits } from '../../../calculator/logic/length';
import { parseNumber } from '../../../lib/number';
import { averageOverLegs, type LegInput, type LegsSummary } from './legs';
import { isPaceUnit, paceUnitIds, paceUnits, type PaceUnit } from './pace';
import { solve, type FieldError, type FormError, type Quantity, type Solution } from './solve';
import { parseTime, type TimeError, type TimeFormat } from './time';
import { speedUnitIds, speedUnits, type SpeedUnit } from './units';
import { distanceUnitIds, type DistanceUnit } from './distance';
import { numberIn, type LegForm, type SpeedForm, type SpeedOrPaceUnit } from './state';

/** What is wrong with one field, as the page words it. */
export type SpeedFieldError = Exclude<FieldError | TimeError, 'required'>;

/** A speed as `metres` travelled in `seconds`: exact factors stay apart until displayed. */
export interface Ratio {
  metres: number;
  seconds: number;
}

type Parsed = { ok: true; value: number; ratio?: Ratio } | { ok: false; error?: SpeedFieldError };

const empty: Parsed = { ok: false };

/** A speed field: a speed in a speed unit, or a pace (a time per km or mile). */
export function parseSpeed(text: string, unit: SpeedOrPaceUnit, lang: string): Parsed {
  if (text.trim() === '') return empty;
  if (isPaceUnit(unit)) {
    const pace = parseTime(text, 'hms', numberIn(lang));
    if (!pace.ok) return { ok: false, error: pace.error === 'required' ? undefined : pace.error };
    const ratio = { metres: paceUnits[unit], seconds: pace.seconds };
    return { ok: true, value: ratio.metres / ratio.seconds, ratio };
  }
  const n = parseNumber(text, lang);
  if (!n.ok) return { ok: false, error: 'notANumber' };
  const { metres, seconds } = speedUnits[unit];
  const ratio = { metres: n.value * metres, seconds };
  return { ok: true, value: ratio.metres / ratio.seconds, ratio };
}

/** A distance field, in metres. */
export function parseDistance(text: string, unit: DistanceUnit, lang: string): Parsed {
  if (text.trim() === '') return empty;
  const n = parseNumber(text, lang);
  return n.ok ? { ok: true, value: n.value * lengthUnits[unit] } : { ok: false, error: 'notANumber' };
}

/** A time field, in seconds. */
export function parseDuration(text: string, format: TimeFormat, lang: string): Parsed {
  if (text.trim() === '') return empty;
  const t = parseTime(text, format, numberIn(lang));
  if (t.ok) return { ok: true, value: t.seconds };
  return { ok: false, error: t.error === 'required' ? undefined : t.error };
}

export type SolveFormError = FormError | 'required';

export type SolveOutcome =
  | {
      ok: true;
      solution: Solution;
      /** The speed as an exact ratio, whichever way it was found. */
      speed: Ratio;
      /** Metres and seconds. */
      distance: number;
      time: number;
    }
  | {
      ok: false;
      /** Nothing typed yet (in the fields that count). */
      empty: boolean;
      fieldErrors: Partial<Record<Quantity, SpeedFieldError>>;
      formError?: SolveFormError;
    };

/** Solves the form: errors by field, or the solution with exact values for display. */
export function solveForm(form: SpeedForm, lang: string): SolveOutcome {
  const target = form.target === 'auto' ? undefined : form.target;
  const parsed: Record<Quantity, Parsed> = {
    speed: target === 'speed' ? empty : parseSpeed(form.speed, form.speedUnit, lang),
    distance: target === 'distance' ? empty : parseDistance(form.distance, form.distanceUnit, lang),
    time: target === 'time' ? empty : parseDuration(form.time, form.timeFormat, lang),
  };
  const texts: Record<Quantity, string> = { speed: form.speed, distance: form.distance, time: form.time };
  // A field that does not parse still counts as filled in (NaN), so "the empty one" stays the
  // empty one; its own message replaces solve's notANumber.
  const value = (q: Quantity) => {
    const p = parsed[q];
    if (p.ok) return p.value;
    return q !== target && texts[q].trim() !== '' ? Number.NaN : undefined;
  };
  const r = solve({ speed: value('speed'), distance: value('distance'), time: value('time'), target });
  const isEmpty = (['speed', 'distance', 'time'] as const).every((q) => q === target || texts[q].trim() === '');
  if (!r.ok) {
    const fieldErrors: Partial<Record<Quantity, SpeedFieldError>> = {};
    let required = false;
    for (const [q, e] of Object.entries(r.fieldErrors) as [Quantity, FieldError][]) {
      if (e === 'required') required = true;
      else fieldErrors[q] = e;
    }
    for (const q of ['speed', 'distance', 'time'] as const) {
      const p = parsed[q];
      if (!p.ok && p.error) fieldErrors[q] = p.error;
    }
    const formError: SolveFormError | undefined = r.formError ?? (required ? 'required' : undefined);
    return formError ? { ok: false, empty: isEmpty, fieldErrors, formError } : { ok: false, empty: isEmpty, fieldErrors };
  }
  const given = (q: Quantity) => parsed[q] as Extract<Parsed, { ok: true }>;
  let speed: Ratio;
  let distance = r.distance;
  let time = r.time;
  switch (r.target) {
    case 'speed':
      speed = { metres: r.distance, seconds: r.time };
      break;
    case 'distance':
      speed = given('speed').ratio!;
      distance = (speed.metres * r.time) / speed.seconds;
      break;
    case 'time':
      speed = given('speed').ratio!;
      time = (r.distance * speed.seconds) / speed.metres;
      break;
  }
  if (!displayable(speed, distance, time)) {
    return { ok: false, empty: false, fieldErrors: {}, formError: 'outOfRange' };
  }
  return { ok: true, solution: r, speed, distance, time };
}

/**
 * Every value the result shows, in every unit, is a positive finite number: 1e306 m/s is
 * valid but has no value in km/h, and a blank or "Infinity" must never reach the page.
 */
export function displayable(speed: Ratio, distance: number, time: number): boolean {
  const values = [
    distance,
    time,
    ...speedUnitIds.map((u) => speedInUnit(speed, u)),
    ...paceUnitIds.map((u) => paceOf(speed, u)),
    ...distanceUnitIds.map((u) => distanceIn(distance, u)),
  ];
  return values.every((x) => Number.isFinite(x) && x > 0);
}

/** A speed ratio in a speed unit, in one fraction. */
export function speedInUnit(speed: Ratio, unit: SpeedUnit): number {
  const u = speedUnits[unit];
  return (speed.metres * u.seconds) / (speed.seconds * u.metres);
}

/** Seconds per km or per mile at a speed. */
export function paceOf(speed: Ratio, unit: PaceUnit): number {
  return (paceUnits[unit] * speed.seconds) / speed.metres;
}

/** A length in metres in a distance unit. */
export function distanceIn(metres: number, unit: DistanceUnit): number {
  return metres / lengthUnits[unit];
}

export interface LegError {
  leg: number;
  field: 'value' | 'time';
  error: SpeedFieldError;
}

export type LegsOutcome =
  | ({ ok: true } & LegsSummary)
  | {
      ok: false;
      empty: boolean;
      errors: LegError[];
      /** 0-based indexes of the legs that lack a value. */
      incomplete: number[];
      outOfRange?: boolean;
    };

/** The average over the legs, or what is missing and wrong, leg by leg. */
export function legsForm(form: SpeedForm, lang: string): LegsOutcome {
  const errors: LegError[] = [];
  const incomplete = new Set<number>();
  const inputs = form.legs.map((leg: LegForm, i): LegInput => {
    const value =
      leg.mode === 'vt'
        ? parseSpeed(leg.value, form.legSpeedUnit, lang)
        : parseDistance(leg.value, form.legDistanceUnit, lang);
    const time = parseDuration(leg.time, form.legTimeFormat, lang);
    const number = (p: Parsed, text: string) => (p.ok ? p.value : text.trim() === '' ? undefined : Number.NaN);
    if (!value.ok && value.error) errors.push({ leg: i, field: 'value', error: value.error });
    if (!time.ok && time.error) errors.push({ leg: i, field: 'time', error: time.error });
    if (leg.value.trim() === '' || leg.time.trim() === '') incomplete.add(i);
    const v = number(value, leg.value);
    return { [leg.mode === 'vt' ? 'speed' : 'distance']: v, time: number(time, leg.time) };
  });
  const isEmpty = form.legs.every((l) => l.value.trim() === '' && l.time.trim() === '');
  const r = averageOverLegs(inputs);
  if (r.ok) {
    const ok = displayable({ metres: r.totalDistance, seconds: r.totalTime }, r.totalDistance, r.totalTime) &&
      r.legs.every((l) => displayable({ metres: l.distance, seconds: l.time }, l.distance, l.time)) &&
      displayable({ metres: r.meanOfSpeeds, seconds: 1 }, 1, 1);
    return ok ? r : { ok: false, empty: false, errors: [], incomplete: [], outOfRange: true };
  }
  for (const e of r.errors) {
    if (!e.field || e.error === 'required' || e.error === 'needTwo') continue;
    const field = e.field === 'time' ? 'time' : 'value';
    if (!errors.some((x) => x.leg === e.leg && x.field === field)) {
      errors.push({ leg: e.leg, field, error: e.error as SpeedFieldError });
    }
  }
  return { ok: false, empty: isEmpty, errors, incomplete: [...incomplete].sort((a, b) => a - b), outOfRange: r.formError === 'outOfRange' || r.errors.some((e) => e.error === 'outOfRange') };
}
