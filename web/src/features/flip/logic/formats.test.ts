import { describe, expect, it } from 'vitest';
import {
  decodedPixelBytes,
  extensions,
  frameCount,
  headerSize,
  isAnimated,
  mimeTypes,
  outputFormat,
  outputName,
  sniffFormat,
  uniqueNames,
  type ImageFormat,
  type OutputChoice,
} from './formats';

// Minimal files, built here byte by byte: only the parts the readers look at are real.
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const be16 = (n: number) => [n >>> 8, n & 0xff];
const le16 = (n: number) => [n & 0xff, n >>> 8];
const be32 = (n: number) => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const le32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24];
const bytes = (...parts: (number | number[])[]) => new Uint8Array(parts.flat());

function jpeg(width: number, height: number, { sof = 0xc0, fill = false, sosFirst = false } = {}): Uint8Array {
  const segment = (marker: number, body: number[]) => [0xff, marker, ...be16(body.length + 2), ...body];
  const jfif = segment(0xe0, [...ascii('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const dqt = segment(0xdb, [0, ...new Array<number>(64).fill(1)]);
  const frame = segment(sof, [8, ...be16(height), ...be16(width), 1, 1, 0x11, 0]);
  const sos = segment(0xda, [1, 1, 0, 0, 63, 0]);
  const data = [0x12, 0x34, 0xff, 0x00, 0x56, 0xff, 0xd9];
  return bytes(0xff, 0xd8, jfif, fill ? [0xff, 0xff] : [], dqt, sosFirst ? [...sos, ...frame] : [...frame, ...sos], data);
}

function pngChunk(type: string, data: number[]): number[] {
  return [...be32(data.length), ...ascii(type), ...data, 0, 0, 0, 0]; // the CRC is not checked
}
const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
function png(width: number, height: number, { actl = 'none' } = {}): Uint8Array {
  const actlChunk = pngChunk('acTL', [...be32(2), ...be32(0)]);
  return bytes(
    pngSignature,
    pngChunk('IHDR', [...be32(width), ...be32(height), 8, 6, 0, 0, 0]),
    actl === 'before' ? actlChunk : [],
    pngChunk('IDAT', [1, 2, 3]),
    actl === 'after' ? actlChunk : [],
    pngChunk('IEND', []),
  );
}

function gif({ width = 5, height = 4, frames = 1, globalTable = true, localTable = false, version = '89a' } = {}): Uint8Array {
  const frame = [
    ...[0x21, 0xf9, 4, 0, 10, 0, 0, 0], // graphic control extension
    0x2c, ...le16(1), ...le16(1), ...le16(3), ...le16(2), localTable ? 0x81 : 0, // descriptor, 3×2 at (1, 1)
    ...(localTable ? new Array<number>(12).fill(7) : []),
    2, 3, 0x44, 0x01, 0x00, 0, // LZW code size, one sub-block, end of blocks
  ];
  return bytes(
    ascii(`GIF${version}`),
    le16(width),
    le16(height),
    globalTable ? 0x81 : 0, 0, 0, // 4-colour global table
    globalTable ? new Array<number>(12).fill(9) : [],
    [0x21, 0xfe, 3, ...ascii('hi!'), 0], // a comment extension
    ...Array.from({ length: frames }, () => frame),
    0x3b,
  );
}

function bmp(width: number, height: number, header = 40): Uint8Array {
  const info =
    header === 12 ? [...le32(12), ...le16(width), ...le16(height), 1, 0, 24, 0] : [...le32(header), ...le32(width), ...le32(height >>> 0), 1, 0, 24, 0, ...new Array<number>(header - 16).fill(0)];
  return bytes(ascii('BM'), le32(54 + 4), le32(0), le32(14 + info.length), info, [0, 0, 255, 0]);
}

function riff(chunks: number[][]): Uint8Array {
  const body = chunks.flat();
  return bytes(ascii('RIFF'), le32(4 + body.length), ascii('WEBP'), body);
}
function webpChunk(type: string, data: number[]): number[] {
  return [...ascii(type), ...le32(data.length), ...data, ...(data.length % 2 ? [0] : [])];
}
const vp8 = (w: number, h: number) => webpChunk('VP8 ', [0x50, 0x02, 0x00, 0x9d, 0x01, 0x2a, ...le16(w), ...le16(h), 1, 2, 3]);
function vp8l(w: number, h: number): number[] {
  const bits = (w - 1) | ((h - 1) << 14) | (1 << 28); // alpha flag, version 0
  return webpChunk('VP8L', [0x2f, ...le32(bits >>> 0), 5]);
}
const vp8x = (w: number, h: number, flags = 0) => webpChunk('VP8X', [flags, 0, 0, 0, ...le32(w - 1).slice(0, 3), ...le32(h - 1).slice(0, 3)]);
const anim = webpChunk('ANIM', [0, 0, 0, 0, 0, 0]);

function box(type: string, body: number[]): number[] {
  return [...be32(8 + body.length), ...ascii(type), ...body];
}
function avif(sizes: [number, number][], brand = 'avif', compatible: string[] = ['mif1', 'miaf']): Uint8Array {
  const ispe = sizes.map(([w, h]) => box('ispe', [0, 0, 0, 0, ...be32(w), ...be32(h)]));
  return bytes(
    box('ftyp', [...ascii(brand), 0, 0, 0, 0, ...compatible.flatMap(ascii)]),
    box('meta', [0, 0, 0, 0, ...box('hdlr', new Array<number>(24).fill(0)), ...box('iprp', box('ipco', ispe.flat()))]),
    box('mdat', [1, 2, 3]),
  );
}

const text = (s: string) => new TextEncoder().encode(s);
function utf16le(s: string): Uint8Array {
  return bytes(0xff, 0xfe, [...s].flatMap((c) => le16(c.charCodeAt(0))));
}

const samples: Record<ImageFormat, Uint8Array> = {
  jpeg: jpeg(640, 480),
  png: png(300, 200),
  gif: gif(),
  bmp: bmp(7, 3),
  webp: riff([vp8(320, 240)]),
  avif: avif([[1200, 800]]),
  heic: avif([[4032, 3024]], 'heic', ['mif1', 'heic']),
  svg: text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'),
};

describe('sniffFormat', () => {
  it('recognises each format by its first bytes', () => {
    for (const [format, b] of Object.entries(samples)) expect(sniffFormat(b), format).toBe(format);
    expect(sniffFormat(gif({ version: '87a' }))).toBe('gif');
    expect(sniffFormat(riff([vp8l(3, 3)]))).toBe('webp');
    expect(sniffFormat(bmp(2, 2, 12))).toBe('bmp');
    expect(sniffFormat(bmp(2, 2, 124))).toBe('bmp');
    expect(sniffFormat(avif([[1, 1]], 'mif1', ['avif']))).toBe('avif');
    expect(sniffFormat(avif([[1, 1]], 'avis', ['msf1']))).toBe('avif');
  });

  it('tells HEIC/HEIF from AVIF by the ftyp brands, AVIF first', () => {
    for (const brand of ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs', 'mif1', 'msf1']) {
      expect(sniffFormat(avif([[1, 1]], brand, [])), brand).toBe('heic');
      expect(sniffFormat(avif([[1, 1]], 'isom', [brand])), `compatible ${brand}`).toBe('heic');
    }
    // AVIF files name the generic HEIF brands too: they stay AVIF, whichever brand comes first.
    expect(sniffFormat(avif([[1, 1]], 'mif1', ['miaf', 'avif']))).toBe('avif');
    expect(sniffFormat(avif([[1, 1]], 'msf1', ['avis']))).toBe('avif');
    // Another ISO media file (an MP4 video) is neither.
    expect(sniffFormat(avif([[1, 1]], 'isom', ['iso2', 'mp41']))).toBeUndefined();
    // A brand only past the ftyp box does not count.
    expect(sniffFormat(bytes(box('ftyp', [...ascii('isom'), 0, 0, 0, 0]), ascii('heic')))).toBeUndefined();
    expect(headerSize(samples.heic, 'heic')).toEqual({ width: 4032, height: 3024 });
  });

  it('recognises nothing else', () => {
    const others = [
      new Uint8Array(0),
      bytes(0xff),
      bytes(0xff, 0xd8),
      bytes(pngSignature.slice(0, 7)),
      text('GIF88a'),
      text('RIFF\0\0\0\0WAVEfmt '),
      text('BMW 3 series, for sale, good condition'),
      text('%PDF-1.7'),
      bytes(0x50, 0x4b, 3, 4),
      text('hello <svg>'),
      text('<svgx/>'),
      text('<html><body><svg></svg></body></html>'),
      text('<!DOCTYPE html><svg></svg>'.replace('<svg></svg>', '<html/>')),
      text('<?xml version="1.0"?><root><svg/></root>'),
      text('<!-- never closed <svg>'),
      text('<?xml version="1.0"'),
      text('   '),
    ];
    for (const b of others) expect(sniffFormat(b), new TextDecoder().decode(b)).toBeUndefined();
  });

  it('finds an SVG after a declaration, BOM, white space, comments and DOCTYPE', () => {
    const svgs = [
      '<svg viewBox="0 0 1 1"></svg>',
      '<svg>',
      '\ufeff<svg/>',
      '\n\t  <?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<svg\nwidth="1">',
      '<?xml version="1.0"?><!-- Generator: Adobe Illustrator 27 --><!-- a > b --><svg>',
      '<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg>',
      '<!DOCTYPE svg [ <!ENTITY ns_svg "http://www.w3.org/2000/svg"> <!-- ] > --> ]><svg xmlns="&ns_svg;">',
      '<?xml-stylesheet href="a.css"?><svg:svg xmlns:svg="http://www.w3.org/2000/svg"/>',
    ];
    for (const s of svgs) expect(sniffFormat(text(s)), s).toBe('svg');
    expect(sniffFormat(utf16le('<?xml version="1.0" encoding="UTF-16"?><svg/>'))).toBe('svg');
  });

  it('looks at the bytes only', () => {
    // A PNG that calls itself .jpg is a PNG; there is no name to call it anything.
    expect(sniffFormat(png(1, 1))).toBe('png');
  });
});

describe('types and extensions', () => {
  it('names each format', () => {
    expect(mimeTypes).toEqual({
      jpeg: 'image/jpeg',
      png: 'image/png',
      webp: 'image/webp',
      gif: 'image/gif',
      bmp: 'image/bmp',
      avif: 'image/avif',
      heic: 'image/heic',
      svg: 'image/svg+xml',
    });
    expect(extensions).toEqual({ jpeg: 'jpg', png: 'png', webp: 'webp', gif: 'gif', bmp: 'bmp', avif: 'avif', heic: 'heic', svg: 'svg' });
  });
});

describe('outputFormat', () => {
  it('keeps the format for "same" where the browser can write it', () => {
    const same: Record<ImageFormat, ImageFormat> = { jpeg: 'jpeg', png: 'png', webp: 'webp', gif: 'png', bmp: 'png', avif: 'png', heic: 'jpeg', svg: 'svg' };
    for (const [input, output] of Object.entries(same)) expect(outputFormat(input as ImageFormat, 'same')).toBe(output);
  });

  it('writes the chosen format otherwise', () => {
    for (const input of Object.keys(mimeTypes) as ImageFormat[]) {
      for (const choice of ['png', 'jpeg', 'webp'] as OutputChoice[]) expect(outputFormat(input, choice)).toBe(choice);
    }
  });
});

describe('outputName', () => {
  it('adds the suffix before the new extension', () => {
    expect(outputName('photo.jpeg', 'jpeg')).toBe('photo-flipped.jpg');
    expect(outputName('photo.jpg', 'png')).toBe('photo-flipped.png');
    expect(outputName('Photo.JPG', 'jpeg')).toBe('Photo-flipped.jpg');
    expect(outputName('drawing.svg', 'svg')).toBe('drawing-flipped.svg');
    expect(outputName('anim.gif', 'png')).toBe('anim-flipped.png');
    expect(outputName('photo.jpg', 'jpeg', 'rotated')).toBe('photo-rotated.jpg');
    expect(outputName('photo.jpg', 'jpeg', '')).toBe('photo.jpg');
  });

  it('keeps the base name: unicode, spaces, several dots', () => {
    expect(outputName('my.holiday.png', 'png')).toBe('my.holiday-flipped.png');
    expect(outputName('Ferien am Meer – Tag 2.webp', 'webp')).toBe('Ferien am Meer – Tag 2-flipped.webp');
    expect(outputName('写真 🐱.jpeg', 'jpeg')).toBe('写真 🐱-flipped.jpg');
    expect(outputName('Screenshot 2024-05-01 at 10.30.15.png', 'png')).toBe('Screenshot 2024-05-01 at 10.30.15-flipped.png');
  });

  it('gives a name without an image extension one', () => {
    expect(outputName('photo', 'png')).toBe('photo-flipped.png');
    expect(outputName('my.holiday', 'jpeg')).toBe('my.holiday-flipped.jpg');
    expect(outputName('scan 10.30', 'png')).toBe('scan 10.30-flipped.png');
    expect(outputName('photo.', 'png')).toBe('photo.-flipped.png');
  });

  it('names an image without a name', () => {
    expect(outputName('', 'png')).toBe('image-flipped.png');
    expect(outputName('   ', 'jpeg')).toBe('image-flipped.jpg');
    expect(outputName('.png', 'png')).toBe('image-flipped.png');
    expect(outputName('???', 'png')).toBe('image-flipped.png');
  });

  it('strips characters that Windows or macOS do not allow', () => {
    expect(outputName('a/b\\c:d*e?f"g<h>i|j.png', 'png')).toBe('abcdefghij-flipped.png');
    expect(outputName('tab\there\u0000\u001f\u007f.png', 'png')).toBe('tabhere-flipped.png');
    expect(outputName('cat\u202egpj.exe.png', 'png')).toBe('catgpj.exe-flipped.png');
    expect(outputName('  spaced  .png', 'png')).toBe('spaced-flipped.png');
    expect(outputName('x.png', 'png', 'a/b')).toBe('x-ab.png');
  });

  it('never makes a Windows device name', () => {
    expect(outputName('con.png', 'png', '')).toBe('_con.png');
    expect(outputName('LPT1.jpg', 'jpeg', '')).toBe('_LPT1.jpg');
    expect(outputName('con.png', 'png')).toBe('con-flipped.png');
  });

  it('keeps names within 255 bytes, whole characters only', () => {
    const long = outputName(`${'é'.repeat(200)}.png`, 'png');
    expect(new TextEncoder().encode(long).length).toBeLessThanOrEqual(255);
    expect(long.endsWith('é-flipped.png')).toBe(true);
    const emoji = outputName(`${'🐱'.repeat(100)}.png`, 'png');
    expect(new TextEncoder().encode(emoji).length).toBeLessThanOrEqual(255);
    expect(emoji).toMatch(/^(🐱)+-flipped\.png$/u);
  });
});

describe('uniqueNames', () => {
  it('numbers repeated names from 2', () => {
    expect(uniqueNames(['a-flipped.png', 'b.png', 'a-flipped.png', 'a-flipped.png'])).toEqual([
      'a-flipped.png',
      'b.png',
      'a-flipped (2).png',
      'a-flipped (3).png',
    ]);
    expect(uniqueNames(['noext', 'noext'])).toEqual(['noext', 'noext (2)']);
    expect(uniqueNames(['my.holiday.png', 'my.holiday.png'])).toEqual(['my.holiday.png', 'my.holiday (2).png']);
  });

  it('does not take a name that comes later in the batch', () => {
    expect(uniqueNames(['a.png', 'a.png', 'a (2).png'])).toEqual(['a.png', 'a (3).png', 'a (2).png']);
  });

  it('treats names as the file systems that unpack the ZIP do: ignoring case and normal form', () => {
    expect(uniqueNames(['Photo.png', 'photo.PNG'])).toEqual(['Photo.png', 'photo (2).PNG']);
    expect(uniqueNames(['cafe\u0301.png', 'caf\u00e9.png'])).toEqual(['cafe\u0301.png', 'caf\u00e9 (2).png']);
  });

  it('leaves unique names alone', () => {
    expect(uniqueNames([])).toEqual([]);
    expect(uniqueNames(['a.png', 'b.png'])).toEqual(['a.png', 'b.png']);
  });
});

describe('frameCount and decodedPixelBytes', () => {
  it('counts the frames an animation will decode, from its headers', () => {
    expect(frameCount(gif({ frames: 1 }), 'gif')).toBe(1);
    expect(frameCount(gif({ frames: 7 }), 'gif')).toBe(7);
    expect(frameCount(png(4, 4), 'png')).toBe(1);
    expect(frameCount(png(4, 4, { actl: 'before' }), 'png')).toBe(2);
    expect(frameCount(riff([vp8x(2, 2, 2), anim, webpChunk('ANMF', new Array<number>(16).fill(0)), webpChunk('ANMF', new Array<number>(16).fill(0))]), 'webp')).toBe(2);
    expect(frameCount(samples.jpeg, 'jpeg')).toBe(1);
    // A truncated GIF counts what it holds, never less than one.
    expect(frameCount(gif({ frames: 3 }).subarray(0, 20), 'gif')).toBe(1);
  });

  it('sizes the decoded samples in bytes: a 16-bit PNG takes twice its 8-bit twin', () => {
    const withDepth = (depth: number, colour: number) => {
      const b = png(1, 1);
      b[24] = depth;
      b[25] = colour;
      return b;
    };
    expect(decodedPixelBytes(withDepth(16, 6), 'png')).toBe(8);
    expect(decodedPixelBytes(withDepth(8, 6), 'png')).toBe(4);
    expect(decodedPixelBytes(withDepth(16, 2), 'png')).toBe(6);
    expect(decodedPixelBytes(withDepth(16, 0), 'png')).toBe(2);
    expect(decodedPixelBytes(withDepth(1, 3), 'png')).toBe(1);
    expect(decodedPixelBytes(gif(), 'gif')).toBe(1);
    expect(decodedPixelBytes(samples.jpeg, 'jpeg')).toBe(4);
  });
});

describe('isAnimated', () => {
  it('counts the frames of a GIF', () => {
    expect(isAnimated(gif({ frames: 1 }), 'gif')).toBe(false);
    expect(isAnimated(gif({ frames: 2 }), 'gif')).toBe(true);
    expect(isAnimated(gif({ frames: 3, globalTable: false, localTable: true }), 'gif')).toBe(true);
    expect(isAnimated(gif({ frames: 0 }), 'gif')).toBe(false);
  });

  it('finds an APNG by its acTL before the image data', () => {
    expect(isAnimated(png(2, 2), 'png')).toBe(false);
    expect(isAnimated(png(2, 2, { actl: 'before' }), 'png')).toBe(true);
    expect(isAnimated(png(2, 2, { actl: 'after' }), 'png')).toBe(false);
  });

  it('finds an animated WebP by its ANIM chunk', () => {
    expect(isAnimated(riff([vp8x(4, 4, 0x02), anim, webpChunk('ANMF', new Array<number>(20).fill(0))]), 'webp')).toBe(true);
    expect(isAnimated(riff([vp8x(4, 4), vp8(4, 4)]), 'webp')).toBe(false);
    expect(isAnimated(riff([vp8(4, 4)]), 'webp')).toBe(false);
  });

  it('is false for still formats and for bytes of another format', () => {
    expect(isAnimated(samples.jpeg, 'jpeg')).toBe(false);
    expect(isAnimated(samples.svg, 'svg')).toBe(false);
    expect(isAnimated(samples.png, 'gif')).toBe(false);
    expect(isAnimated(samples.gif, 'webp')).toBe(false);
  });

  it('counts only the frames that are there in a truncated GIF', () => {
    const two = gif({ frames: 2 });
    const secondDescriptor = two.lastIndexOf(0x2c);
    expect(isAnimated(two.subarray(0, secondDescriptor + 5), 'gif')).toBe(false);
    expect(isAnimated(two.subarray(0, secondDescriptor + 11), 'gif')).toBe(true);
  });
});

describe('headerSize', () => {
  it('reads the size of each raster format', () => {
    expect(headerSize(jpeg(640, 480), 'jpeg')).toEqual({ width: 640, height: 480 });
    expect(headerSize(jpeg(6000, 4000, { sof: 0xc2, fill: true }), 'jpeg')).toEqual({ width: 6000, height: 4000 });
    expect(headerSize(jpeg(65535, 1, { sof: 0xc1 }), 'jpeg')).toEqual({ width: 65535, height: 1 });
    expect(headerSize(png(300, 200), 'png')).toEqual({ width: 300, height: 200 });
    expect(headerSize(png(100000, 3), 'png')).toEqual({ width: 100000, height: 3 });
    expect(headerSize(gif({ width: 500, height: 20 }), 'gif')).toEqual({ width: 500, height: 20 });
    expect(headerSize(bmp(7, 3), 'bmp')).toEqual({ width: 7, height: 3 });
    expect(headerSize(bmp(7, -3, 108), 'bmp')).toEqual({ width: 7, height: 3 }); // top-down rows
    expect(headerSize(bmp(9, 5, 12), 'bmp')).toEqual({ width: 9, height: 5 });
    expect(headerSize(riff([vp8(320, 240)]), 'webp')).toEqual({ width: 320, height: 240 });
    expect(headerSize(riff([vp8l(16384, 1)]), 'webp')).toEqual({ width: 16384, height: 1 });
    expect(headerSize(riff([vp8x(20000, 30000), vp8(1, 1)]), 'webp')).toEqual({ width: 20000, height: 30000 });
    expect(headerSize(avif([[4000, 3000]]), 'avif')).toEqual({ width: 4000, height: 3000 });
    // A grid: the tiles' sizes and the whole image's; the whole is the largest.
    expect(headerSize(avif([[512, 512], [8192, 4096], [512, 512]]), 'avif')).toEqual({ width: 8192, height: 4096 });
  });

  it('uses the first frame when a GIF gives its screen as 0×0', () => {
    expect(headerSize(gif({ width: 0, height: 0 }), 'gif')).toEqual({ width: 4, height: 3 });
  });

  it('does not size an SVG', () => {
    expect(headerSize(samples.svg, 'svg')).toBeUndefined();
  });

  it('gives undefined for corrupt headers', () => {
    expect(headerSize(jpeg(640, 480, { sosFirst: true }), 'jpeg')).toBeUndefined();
    expect(headerSize(jpeg(640, 0), 'jpeg')).toBeUndefined(); // height defined later (DNL)
    expect(headerSize(jpeg(0, 10), 'jpeg')).toBeUndefined();
    expect(headerSize(png(0, 10), 'png')).toBeUndefined();
    expect(headerSize(bmp(0, 10), 'bmp')).toBeUndefined();
    expect(headerSize(bmp(-5, 10), 'bmp')).toBeUndefined();
    expect(headerSize(gif({ width: 0, height: 0, frames: 0 }), 'gif')).toBeUndefined();
    expect(headerSize(riff([webpChunk('VP8 ', [0, 0, 0, 1, 2, 3, 10, 0, 10, 0])]), 'webp')).toBeUndefined();
    expect(headerSize(riff([webpChunk('VP8L', [0x2e, 0, 0, 0, 0])]), 'webp')).toBeUndefined();
    expect(headerSize(riff([webpChunk('ALPH', [1, 2])]), 'webp')).toBeUndefined();
    expect(headerSize(avif([]), 'avif')).toBeUndefined();
    expect(headerSize(avif([[0, 5]]), 'avif')).toBeUndefined();
    // The bytes of another format.
    expect(headerSize(samples.png, 'jpeg')).toBeUndefined();
    expect(headerSize(samples.jpeg, 'png')).toBeUndefined();
    expect(headerSize(samples.gif, 'bmp')).toBeUndefined();
  });

  it('gives undefined for headers cut short', () => {
    expect(headerSize(samples.jpeg.subarray(0, 30), 'jpeg')).toBeUndefined();
    expect(headerSize(samples.png.subarray(0, 23), 'png')).toBeUndefined();
    expect(headerSize(samples.gif.subarray(0, 9), 'gif')).toBeUndefined();
    expect(headerSize(samples.bmp.subarray(0, 25), 'bmp')).toBeUndefined();
    expect(headerSize(samples.webp.subarray(0, 28), 'webp')).toBeUndefined();
    expect(headerSize(riff([vp8x(5, 5)]).subarray(0, 29), 'webp')).toBeUndefined();
  });
});

describe('untrusted bytes', () => {
  const formats = Object.keys(mimeTypes) as ImageFormat[];
  const files = [
    ...Object.values(samples),
    gif({ frames: 3, localTable: true }),
    png(5, 5, { actl: 'before' }),
    riff([vp8x(4, 4, 2), anim, vp8l(4, 4)]),
    avif([[1, 2], [3, 4]]),
    bmp(3, 3, 12),
  ];

  it('never throws on a truncated file, nor on a file of another format', () => {
    for (const file of files) {
      for (let n = 0; n <= file.length; n++) {
        const cut = file.subarray(0, n);
        const format = sniffFormat(cut);
        for (const f of formats) {
          headerSize(cut, f);
          isAnimated(cut, f);
        }
        if (format) expect(formats).toContain(format);
      }
    }
  });

  it('never throws on damaged bytes, and reads only sizes that make sense', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (const file of files) {
      for (let round = 0; round < 300; round++) {
        const damaged = file.slice();
        for (let k = 0; k < 3; k++) damaged[Math.floor(random() * damaged.length)] = Math.floor(random() * 256);
        sniffFormat(damaged);
        for (const f of formats) {
          const size = headerSize(damaged, f);
          if (size) {
            expect(Number.isInteger(size.width) && size.width > 0).toBe(true);
            expect(Number.isInteger(size.height) && size.height > 0).toBe(true);
          }
          expect(typeof isAnimated(damaged, f)).toBe('boolean');
        }
      }
    }
  });

  it('handles lengths that point past the end or wrap round', () => {
    expect(isAnimated(bytes(pngSignature, be32(0xffffffff), ascii('acTX')), 'png')).toBe(false);
    expect(isAnimated(bytes(ascii('RIFF'), le32(0xffffffff), ascii('WEBP'), ascii('VP8X'), le32(0xfffffff0)), 'webp')).toBe(false);
    expect(headerSize(bytes(be32(0), ascii('ftyp'), ascii('avif')), 'avif')).toBeUndefined();
    expect(headerSize(bytes(be32(1), ascii('meta'), be32(0), be32(0)), 'avif')).toBeUndefined();
  });
});
