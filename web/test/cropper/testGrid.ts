// Test helpers: tiny images as grids of labels, turned by plain array work, and the same grids
// moved by a canvas matrix (each pixel's centre mapped), to compare the two.
import { transformPoint, type Matrix } from '../../src/cropper/geometry';

export type Grid = string[][];

/** A w × h grid whose pixels are named by their stored position: "x,y". */
export function grid(w: number, h: number): Grid {
  return Array.from({ length: h }, (_, y) => Array.from({ length: w }, (_, x) => `${x},${y}`));
}

export function rotateCW(g: Grid): Grid {
  const h = g.length;
  const w = g[0].length;
  return Array.from({ length: w }, (_, y) => Array.from({ length: h }, (_, x) => g[h - 1 - x][y]));
}

export function turns(g: Grid, n: number): Grid {
  for (let i = 0; i < n; i++) g = rotateCW(g);
  return g;
}

/** Draws `g` through `m` into a grid of `w` × `h`, as a canvas would (pixel centres); `clip` drops what lands outside. */
export function draw(g: Grid, m: Matrix, w: number, h: number, clip = false): Grid {
  const out: Grid = Array.from({ length: h }, () => Array.from({ length: w }, () => '?'));
  g.forEach((row, y) =>
    row.forEach((v, x) => {
      const p = transformPoint(m, { x: x + 0.5, y: y + 0.5 });
      const X = Math.floor(p.x);
      const Y = Math.floor(p.y);
      if (X < 0 || Y < 0 || X >= w || Y >= h) {
        if (clip) return;
        throw new Error(`pixel ${v} lands outside at ${p.x},${p.y}`);
      }
      out[Y][X] = v;
    }),
  );
  return out;
}
