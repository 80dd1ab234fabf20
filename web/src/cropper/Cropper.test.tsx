// The component on the server (Node, no DOM): what prerendering sends, and the props' defaults.
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Cropper, defaultCropperProps, type CropperLabels } from './index';
import { sizeText, withDefaults } from './types';

const labels: CropperLabels = {
  region: 'Crop area',
  instructions: 'Drag to move; arrows move; Alt + arrows resize; + and − zoom; [ and ] rotate.',
  size: '{width} × {height} px',
  tools: 'Crop tools',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  rotateLeft: 'Rotate left',
  rotateRight: 'Rotate right',
  reset: 'Reset crop',
  loading: 'Loading the image…',
  error: 'This image cannot be opened.',
};

describe('Cropper on the server', () => {
  const html = renderToString(<Cropper src={undefined} labels={labels} />);

  it('renders with no style attribute and no style element (strict CSP)', () => {
    expect(html).not.toMatch(/\sstyle=/i);
    expect(html).not.toMatch(/<style/i);
  });

  it('renders a canvas named and described for assistive technology', () => {
    expect(html).toMatch(/<canvas[^>]*class="cropper-canvas"[^>]*role="group"[^>]*tabindex="-1"[^>]*aria-label="Crop area"/);
    const described = /aria-describedby="([^"]+)"/.exec(html)![1].split(' ');
    expect(described).toHaveLength(2);
    for (const id of described) expect(html).toContain(`id="${id}"`);
    expect(html).toContain(labels.instructions);
    expect(html).toMatch(/aria-live="polite"/);
  });

  it('renders the five tools as real, labelled, disabled buttons until an image loads', () => {
    const buttons = html.match(/<button[^>]*>/g)!;
    expect(buttons).toHaveLength(5);
    for (const b of buttons) {
      expect(b).toContain('type="button"');
      expect(b).toContain('disabled');
    }
    for (const name of ['Zoom in', 'Zoom out', 'Rotate left', 'Rotate right', 'Reset crop']) expect(html).toContain(`aria-label="${name}"`);
    expect(html).toContain('aria-label="Crop tools"');
    expect(html).toContain('data-state="idle"');
  });

  it('starts loading when given a source, and shows the chosen tools only', () => {
    const loading = renderToString(<Cropper src="/a.jpg" labels={labels} tools={['rotateLeft', 'rotateRight']} />);
    expect(loading).toContain('data-state="loading"');
    expect(loading).toContain('Loading the image…');
    expect(loading.match(/<button/g)).toHaveLength(2);
    expect(renderToString(<Cropper src={undefined} labels={labels} tools={[]} />)).not.toContain('<button');
  });
});

describe('props', () => {
  it("has the spec's defaults", () => {
    expect(defaultCropperProps).toMatchObject({
      outputSize: 1,
      outputType: 'jpeg',
      quality: 0.92,
      ratio: [1, 1],
      fixed: true,
      autoCrop: false,
      maxImageSize: 2000,
      minCropSize: 10,
      fillColor: 'transparent',
      mode: 'contain',
    });
  });

  it('fills in defaults for undefined props only', () => {
    const p = withDefaults({ src: undefined, labels, outputSize: undefined, outputType: 'png', fixed: false, minCropSize: 0 });
    expect(p.outputSize).toBe(1);
    expect(p.outputType).toBe('png');
    expect(p.fixed).toBe(false);
    expect(p.minCropSize).toBe(0);
    expect(p.mode).toBe('contain');
  });

  it('writes the size label from a template or a function', () => {
    expect(sizeText('{width} × {height} px', 300, 200)).toBe('300 × 200 px');
    expect(sizeText((w, h) => `${w}x${h}`, 3, 2)).toBe('3x2');
  });
});
