// What each field of each shape is called on the page: a field id such as `a` is a side of one
// shape and a semi-axis of another, so the label depends on both. Keys of area:fields.
import type areaMessages from '../locales/en.json';
import type { ShapeId } from './shapes';

export type FieldLabel = keyof typeof areaMessages.fields;

export const fieldLabels: Readonly<Record<ShapeId, Readonly<Record<string, FieldLabel>>>> = {
  square: { s: 'side' },
  rectangle: { l: 'length', w: 'width' },
  triangle: { b: 'base', h: 'height' },
  'triangle-sss': { a: 'sideA', b: 'sideB', c: 'sideC' },
  'triangle-sas': { a: 'sideA', b: 'sideB', angle: 'angleBetween' },
  'right-triangle': { a: 'legA', b: 'legB' },
  circle: { r: 'radius' },
  'circle-diameter': { d: 'diameter' },
  semicircle: { r: 'radius' },
  'quarter-circle': { r: 'radius' },
  sector: { r: 'radius', angle: 'centralAngle' },
  annulus: { outer: 'outerRadius', inner: 'innerRadius' },
  ellipse: { a: 'semiAxisA', b: 'semiAxisB' },
  trapezoid: { a: 'parallelA', b: 'parallelB', h: 'height', c: 'legC', d: 'legD' },
  parallelogram: { b: 'base', h: 'height' },
  'parallelogram-sas': { a: 'sideA', b: 'sideB', angle: 'angle' },
  rhombus: { p: 'diagonalP', q: 'diagonalQ' },
  'rhombus-side-angle': { s: 'side', angle: 'angle' },
  kite: { p: 'diagonalP', q: 'diagonalQ', a: 'kiteA', b: 'kiteB' },
  'regular-polygon': { n: 'sides', s: 'side' },
  polygon: { vertices: 'vertices' },
};
