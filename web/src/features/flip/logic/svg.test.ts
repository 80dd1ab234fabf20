import { describe, expect, it } from 'vitest';
import { apply, canvasMatrix, identity, type Operation, type Transform } from '../../../lib/image/transform';
import { transformSvg } from './svg';

const op = (...ops: Operation[]) => ops.reduce(apply, identity);
const all: readonly Transform[] = [0, 1, 2, 3].flatMap((turns) => [
  { turns: turns as Transform['turns'], mirror: false },
  { turns: turns as Transform['turns'], mirror: true },
]);

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const simple = `<svg ${NS} width="30" height="20" viewBox="0 0 30 20"><rect x="1" y="2" width="3" height="4"/></svg>`;

/** The root's attributes and the group's matrix, read back from the output. */
function inspect(svg: string) {
  const root = /<(?:\w+:)?svg\b([^>]*)>/.exec(svg)?.[1] ?? '';
  const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*(["'])(.*?)\\1`).exec(root)?.[2];
  const matrix = /<(?:\w+:)?g transform="matrix\(([^)]*)\)">/.exec(svg)?.[1].split(' ').map(Number);
  return { width: attr('width'), height: attr('height'), viewBox: attr('viewBox'), matrix };
}

const applyMatrix = (m: number[], x: number, y: number) => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];

describe('transformSvg', () => {
  it('leaves the document as it is for the identity', () => {
    expect(transformSvg(simple, identity)).toBe(simple);
  });

  it('mirrors horizontally within the same box', () => {
    expect(transformSvg(simple, op('flipH'))).toBe(
      `<svg ${NS} width="30" height="20" viewBox="0 0 30 20"><g transform="matrix(-1 0 0 1 30 0)"><rect x="1" y="2" width="3" height="4"/></g></svg>`,
    );
    expect(inspect(transformSvg(simple, op('flipV'))!).matrix).toEqual([1, 0, 0, -1, 0, 20]);
  });

  it('turns a quarter, swapping the size and the viewBox size', () => {
    expect(transformSvg(simple, op('rotateCW'))).toBe(
      `<svg ${NS} width="20" height="30" viewBox="0 0 20 30"><g transform="matrix(0 1 -1 0 20 0)"><rect x="1" y="2" width="3" height="4"/></g></svg>`,
    );
    expect(inspect(transformSvg(simple, op('rotateCCW'))!)).toEqual({ width: '20', height: '30', viewBox: '0 0 20 30', matrix: [0, -1, 1, 0, 0, 30] });
    expect(inspect(transformSvg(simple, op('rotateCW', 'rotateCW'))!)).toEqual({ width: '30', height: '20', viewBox: '0 0 30 20', matrix: [-1, 0, 0, -1, 30, 20] });
  });

  it('uses the canvas matrix of the same transform', () => {
    for (const t of all) expect(inspect(transformSvg(simple, t) ?? '').matrix ?? [1, 0, 0, 1, 0, 0]).toEqual(canvasMatrix(t, 30, 20));
  });

  it('maps a viewBox that does not start at 0 0 onto itself turned', () => {
    const svg = `<svg ${NS} viewBox="10 20 30 40"><circle cx="15" cy="25" r="2"/></svg>`;
    expect(inspect(transformSvg(svg, op('flipH'))!)).toEqual({ width: undefined, height: undefined, viewBox: '10 20 30 40', matrix: [-1, 0, 0, 1, 50, 0] });
    expect(inspect(transformSvg(svg, op('rotateCW'))!)).toEqual({ width: undefined, height: undefined, viewBox: '10 20 40 30', matrix: [0, 1, -1, 0, 70, 10] });
    for (const t of all) {
      const out = inspect(transformSvg(svg, t)!);
      const m = out.matrix ?? [1, 0, 0, 1, 0, 0];
      const [x, y, w, h] = out.viewBox!.split(' ').map(Number);
      const corners = [
        [10, 20],
        [40, 20],
        [10, 60],
        [40, 60],
      ].map(([cx, cy]) => applyMatrix(m, cx, cy).join(','));
      expect(new Set(corners)).toEqual(new Set([`${x},${y}`, `${x + w},${y}`, `${x},${y + h}`, `${x + w},${y + h}`]));
    }
  });

  it('reads viewBox numbers however they are separated and written', () => {
    const svg = `<svg ${NS} viewBox=" -5,-5 , 1e1 .5e1 "><path d="M0 0"/></svg>`;
    expect(inspect(transformSvg(svg, op('rotateCW'))!)).toMatchObject({ viewBox: '-5 -5 5 10', matrix: [0, 1, -1, 0, -5, 0] });
  });

  it('keeps each value with its own quotes, in single or double quotes, in any order', () => {
    const svg = `<svg viewBox='0 0 4 2' height="2" ${NS} width='4'><g/></svg>`;
    expect(transformSvg(svg, op('rotateCW'))).toBe(
      `<svg viewBox='0 0 2 4' height='4' ${NS} width="2"><g transform="matrix(0 1 -1 0 2 0)"><g/></g></svg>`,
    );
    const spaced = `<svg ${NS}\n  width = "4px"\n  height\t=\t'2px'\n><g/></svg>`;
    expect(transformSvg(spaced, op('rotateCCW'))).toBe(
      `<svg ${NS}\n  width = '2px'\n  height\t=\t"4px"\n><g transform="matrix(0 -1 1 0 0 4)"><g/></g></svg>`,
    );
  });

  it('sizes by width and height (unitless or px) without a viewBox', () => {
    const svg = `<svg ${NS} width="300px" height="200"><rect/></svg>`;
    expect(inspect(transformSvg(svg, op('rotateCW'))!)).toEqual({ width: '200', height: '300px', viewBox: undefined, matrix: [0, 1, -1, 0, 200, 0] });
    // An invalid viewBox is ignored, as browsers do.
    const invalid = `<svg ${NS} width="3" height="2" viewBox="0 0 0 0"><rect/></svg>`;
    expect(inspect(transformSvg(invalid, op('flipH'))!)).toMatchObject({ viewBox: '0 0 0 0', matrix: [-1, 0, 0, 1, 3, 0] });
  });

  it('renames a lone width or height with the viewBox', () => {
    const svg = `<svg ${NS} width="10em" viewBox="0 0 4 2"><rect/></svg>`;
    expect(transformSvg(svg, op('rotateCW'))).toContain(`<svg ${NS} height="10em" viewBox="0 0 2 4">`);
    expect(transformSvg(svg.replace('width', 'height'), op('rotateCW'))).toContain(`<svg ${NS} width="10em" viewBox="0 0 2 4">`);
    expect(transformSvg(svg, op('flipH'))).toContain(`<svg ${NS} width="10em" viewBox="0 0 4 2">`);
  });

  it('cannot size an SVG without a viewBox and absolute width and height', () => {
    expect(transformSvg(`<svg ${NS}><rect/></svg>`, op('flipH'))).toBeUndefined();
    expect(transformSvg(`<svg ${NS} width="100%" height="100%"><rect/></svg>`, op('flipH'))).toBeUndefined();
    expect(transformSvg(`<svg ${NS} width="10" height="0"><rect/></svg>`, op('flipH'))).toBeUndefined();
    expect(transformSvg(`<svg ${NS} width="10"><rect/></svg>`, identity)).toBeUndefined();
  });

  it('needs an <svg> root', () => {
    for (const text of [
      '',
      'hello',
      '<html><svg viewBox="0 0 1 1"></svg></html>',
      '<svgx viewBox="0 0 1 1"></svgx>',
      'x<svg viewBox="0 0 1 1"></svg>',
      '<svg viewBox="0 0 1 1"><rect/>', // never closed
      '<svg viewBox="0 0 1 1"><rect></svg>', // a child never closed
      '<svg viewBox="0 0 1 1" <rect/></svg>',
    ]) {
      expect(transformSvg(text, op('flipH')), text).toBeUndefined();
    }
  });

  it('keeps the declaration, DOCTYPE, comments and namespaces', () => {
    const prolog =
      '\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<!-- Generator: Adobe Illustrator -->\n' +
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [\n<!ENTITY ns_svg "http://www.w3.org/2000/svg">\n]>\n';
    const root = '<svg version="1.1" xmlns="&ns_svg;" xmlns:xlink="http://www.w3.org/1999/xlink" x="0px" y="0px" width="8px" height="6px" viewBox="0 0 8 6" xml:space="preserve">';
    const body = '\n<defs><linearGradient id="a"/></defs>\n<use xlink:href="#a"/>\n';
    const out = transformSvg(`${prolog}${root}${body}</svg>\n<!-- end -->\n`, op('rotateCW'))!;
    expect(out).toBe(
      `${prolog}${root.replace('width="8px" height="6px" viewBox="0 0 8 6"', 'width="6px" height="8px" viewBox="0 0 6 8"')}` +
        `<g transform="matrix(0 1 -1 0 6 0)">${body}</g></svg>\n<!-- end -->\n`,
    );
  });

  it('finds the root end past nested SVGs, comments, CDATA and markup in attributes', () => {
    const body =
      '<svg x="1" viewBox="0 0 1 1"><svg><rect/></svg></svg>' +
      '<!-- </svg> --><style><![CDATA[ a > b { } </svg> ]]></style>' +
      '<text data-x="</svg>" title=\'a > b\'>1 &lt; 2</text><?pi </svg> ?>';
    const svg = `<svg ${NS} data-note="a > b" viewBox="0 0 2 2">${body}</svg><!-- </svg> -->`;
    expect(transformSvg(svg, op('flipH'))).toBe(
      `<svg ${NS} data-note="a > b" viewBox="0 0 2 2"><g transform="matrix(-1 0 0 1 2 0)">${body}</g></svg><!-- </svg> -->`,
    );
  });

  it('uses the root prefix for the group', () => {
    const svg = '<svg:svg xmlns:svg="http://www.w3.org/2000/svg" viewBox="0 0 2 1"><svg:rect/></svg:svg>';
    expect(transformSvg(svg, op('flipV'))).toBe(
      '<svg:svg xmlns:svg="http://www.w3.org/2000/svg" viewBox="0 0 2 1"><svg:g transform="matrix(1 0 0 -1 0 1)"><svg:rect/></svg:g></svg:svg>',
    );
  });

  it('turns an empty root by its size alone', () => {
    expect(transformSvg(`<svg ${NS} width="3" height="2"/>`, op('rotateCW'))).toBe(`<svg ${NS} width="2" height="3"/>`);
  });

  it('turns the alignment of preserveAspectRatio with the picture', () => {
    const svg = (par: string) => `<svg ${NS} width="100" height="100" viewBox="0 0 4 2" preserveAspectRatio="${par}"><rect/></svg>`;
    const par = (s: string | undefined) => /preserveAspectRatio="([^"]*)"/.exec(s ?? '')?.[1];
    // Pinned to the left: to the top after a clockwise turn, to the right after a mirror.
    expect(par(transformSvg(svg('xMinYMid meet'), op('rotateCW')))).toBe('xMidYMin meet');
    expect(par(transformSvg(svg('xMinYMid'), op('flipH')))).toBe('xMaxYMid');
    expect(par(transformSvg(svg('xMinYMin slice'), op('rotateCCW')))).toBe('xMinYMax slice');
    expect(par(transformSvg(svg('xMaxYMin'), op('flipV')))).toBe('xMaxYMax');
    expect(par(transformSvg(svg('none'), op('rotateCW')))).toBe('none');
    expect(par(transformSvg(svg('xMidYMid'), op('rotateCW')))).toBe('xMidYMid');
  });

  it('writes numbers without binary residue', () => {
    const svg = `<svg ${NS} viewBox="0.1 0.2 0.3 0.4"><rect/></svg>`;
    expect(inspect(transformSvg(svg, op('rotateCW'))!)).toEqual({ width: undefined, height: undefined, viewBox: '0.1 0.2 0.4 0.3', matrix: [0, 1, -1, 0, 0.7, 0.1] });
  });
});
