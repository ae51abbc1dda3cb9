import { deflateSync } from 'node:zlib';
import { outsideStop } from '../../../platform/workers/stop-gate';
import { glyph, GLYPH_HEIGHT, GLYPH_WIDTH } from './font';

export type Rgb = [number, number, number];

/** An RGB raster with the few drawing operations the dashboard renderer needs. */
export class Raster {
  readonly pixels: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb,
  ) {
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw new Error(`Bad raster size ${width}×${height}.`);
    this.pixels = new Uint8Array(width * height * 3);
    this.fillRect(0, 0, width, height, background);
  }

  fillRect(x: number, y: number, w: number, h: number, color: Rgb): void {
    const x0 = Math.max(0, Math.round(x));
    const y0 = Math.max(0, Math.round(y));
    const x1 = Math.min(this.width, Math.round(x + w));
    const y1 = Math.min(this.height, Math.round(y + h));
    for (let row = y0; row < y1; row++) {
      let i = (row * this.width + x0) * 3;
      for (let col = x0; col < x1; col++) {
        this.pixels[i++] = color[0];
        this.pixels[i++] = color[1];
        this.pixels[i++] = color[2];
      }
    }
  }

  strokeRect(x: number, y: number, w: number, h: number, color: Rgb, thickness = 1): void {
    this.fillRect(x, y, w, thickness, color);
    this.fillRect(x, y + h - thickness, w, thickness, color);
    this.fillRect(x, y, thickness, h, color);
    this.fillRect(x + w - thickness, y, thickness, h, color);
  }

  /** A straight line `thickness` pixels wide (square pen), for chart series. */
  line(x0: number, y0: number, x1: number, y1: number, color: Rgb, thickness = 2): void {
    const steps = Math.max(1, Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0))));
    for (let i = 0; i <= steps; i++) {
      const t = i / steps;
      this.fillRect(x0 + (x1 - x0) * t - thickness / 2, y0 + (y1 - y0) * t - thickness / 2, thickness, thickness, color);
    }
  }

  /** Draws text with the bitmap font at `scale`, cut (with `…`-like dots) to `maxWidth` pixels. */
  text(x: number, y: number, value: string, color: Rgb, scale = 2, maxWidth = Infinity): void {
    const advance = (GLYPH_WIDTH + 1) * scale;
    let chars = [...value];
    const fits = Math.floor((maxWidth + scale) / advance);
    if (chars.length > fits) chars = fits > 3 ? [...chars.slice(0, fits - 3), '.', '.', '.'] : chars.slice(0, Math.max(0, fits));
    chars.forEach((char, index) => {
      const rows = glyph(char);
      for (let r = 0; r < GLYPH_HEIGHT; r++) {
        for (let c = 0; c < GLYPH_WIDTH; c++) {
          if (rows[r][c]) this.fillRect(x + index * advance + c * scale, y + r * scale, scale, scale, color);
        }
      }
    });
  }

  static textWidth(value: string, scale = 2): number {
    return [...value].length * (GLYPH_WIDTH + 1) * scale - scale;
  }
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 as PNG chunks use it (ISO 3309). */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Encodes the raster as an 8-bit truecolour PNG (filter 0 on every row, zlib-deflated). */
export function encodePng(raster: Raster): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(raster.width, 0);
  header.writeUInt32BE(raster.height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  header[10] = 0; // deflate
  header[11] = 0; // adaptive filtering
  header[12] = 0; // no interlace
  const stride = raster.width * 3;
  const scanlines = Buffer.alloc((stride + 1) * raster.height);
  for (let row = 0; row < raster.height; row++) {
    scanlines[row * (stride + 1)] = 0;
    scanlines.set(raster.pixels.subarray(row * stride, (row + 1) * stride), row * (stride + 1) + 1);
  }
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', outsideStop(() => deflateSync(scanlines, { level: 6 }))), chunk('IEND', new Uint8Array(0))]);
}
