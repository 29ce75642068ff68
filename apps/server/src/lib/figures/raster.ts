/**
 * A small anti-aliased canvas for the server's figures (the location figures of ADR 025, the batch plots of
 * ADR 035): an RGB picture to fill boxes, stroke lines and disks on, then write as PNG (png.ts). Lines are
 * anti-aliased by coverage (each pixel's centre's distance to the segment), taken as the maximum over a stroke's
 * segments so that joints are not drawn twice. No words: a raster of text needs a font, and the server does not
 * depend on one being installed — each figure's SVG carries its words.
 */

export type Rgb = readonly [number, number, number];

/** A box on the picture, in pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const INK: Rgb = [0, 0, 0];
export const PAPER: Rgb = [255, 255, 255];

export class Canvas {
  readonly rgb: Uint8Array;
  /** One stroke's coverage (0–255) before it is laid on the picture. */
  private readonly coverage: Uint8Array;
  private dirty = { left: Number.POSITIVE_INFINITY, top: Number.POSITIVE_INFINITY, right: -1, bottom: -1 };

  /** A white picture, or the grey picture `reference` (0–255, width × height). */
  constructor(
    readonly width: number,
    readonly height: number,
    reference: Float32Array | null = null,
  ) {
    this.rgb = new Uint8Array(width * height * 3);
    this.coverage = new Uint8Array(width * height);
    if (!reference) {
      this.rgb.fill(255);
      return;
    }
    for (let i = 0; i < width * height; i++) {
      const grey = Math.min(255, Math.max(0, Math.round(reference[i]!)));
      this.rgb[3 * i] = grey;
      this.rgb[3 * i + 1] = grey;
      this.rgb[3 * i + 2] = grey;
    }
  }

  private blend(pixel: number, colour: Rgb, alpha: number) {
    const at = 3 * pixel;
    for (let k = 0; k < 3; k++) this.rgb[at + k] = Math.round(this.rgb[at + k]! * (1 - alpha) + colour[k]! * alpha);
  }

  /** The pixels whose centres lie in the box. */
  fillBox(box: Box, colour: Rgb, alpha = 1) {
    const [left, right] = [Math.max(0, Math.round(box.x)), Math.min(this.width, Math.round(box.x + box.width))];
    const [top, bottom] = [Math.max(0, Math.round(box.y)), Math.min(this.height, Math.round(box.y + box.height))];
    for (let row = top; row < bottom; row++) {
      for (let column = left; column < right; column++) this.blend(row * this.width + column, colour, alpha);
    }
  }

  /** Adds the segment from a to b, `radius` wide on each side (a disk when a = b), to the stroke's coverage. */
  segment(ax: number, ay: number, bx: number, by: number, radius: number) {
    const reach = radius + 1;
    const top = Math.max(0, Math.floor(Math.min(ay, by) - reach));
    const bottom = Math.min(this.height - 1, Math.ceil(Math.max(ay, by) + reach));
    const dx = bx - ax;
    const dy = by - ay;
    const lengthSquared = dx * dx + dy * dy;
    for (let row = top; row <= bottom; row++) {
      const cy = row + 0.5;
      // The part of the segment within `reach` of this row bounds the columns to look at.
      let from = 0;
      let to = 1;
      if (dy !== 0) {
        const t1 = (cy - reach - ay) / dy;
        const t2 = (cy + reach - ay) / dy;
        from = Math.max(0, Math.min(t1, t2));
        to = Math.min(1, Math.max(t1, t2));
        if (from > to) continue;
      } else if (Math.abs(ay - cy) > reach) continue;
      const left = Math.max(0, Math.floor(Math.min(ax + dx * from, ax + dx * to) - reach));
      const right = Math.min(this.width - 1, Math.ceil(Math.max(ax + dx * from, ax + dx * to) + reach));
      for (let column = left; column <= right; column++) {
        const cx = column + 0.5;
        const t = lengthSquared === 0 ? 0 : Math.min(1, Math.max(0, ((cx - ax) * dx + (cy - ay) * dy) / lengthSquared));
        const distance = Math.hypot(cx - (ax + dx * t), cy - (ay + dy * t));
        const cover = Math.round(Math.min(1, Math.max(0, radius + 0.5 - distance)) * 255);
        const pixel = row * this.width + column;
        if (cover <= this.coverage[pixel]!) continue;
        this.coverage[pixel] = cover;
        this.dirty.left = Math.min(this.dirty.left, column);
        this.dirty.right = Math.max(this.dirty.right, column);
        this.dirty.top = Math.min(this.dirty.top, row);
        this.dirty.bottom = Math.max(this.dirty.bottom, row);
      }
    }
  }

  /** Lays the stroke's coverage on the picture in `colour`, and clears it. */
  paint(colour: Rgb, opacity = 1) {
    const { left, top, right, bottom } = this.dirty;
    for (let row = top; row <= bottom; row++) {
      for (let column = left; column <= right; column++) {
        const pixel = row * this.width + column;
        const cover = this.coverage[pixel]!;
        if (cover === 0) continue;
        this.blend(pixel, colour, (cover / 255) * opacity);
        this.coverage[pixel] = 0;
      }
    }
    this.dirty = { left: Number.POSITIVE_INFINITY, top: Number.POSITIVE_INFINITY, right: -1, bottom: -1 };
  }

  /** A line through flat [x0, y0, x1, y1, …] points (closed: back to the first). */
  polyline(points: readonly number[], radius: number, closed: boolean) {
    const count = points.length / 2;
    if (count === 1) this.segment(points[0]!, points[1]!, points[0]!, points[1]!, radius);
    for (let i = 1; i < count + (closed ? 1 : 0); i++) {
      const a = i - 1;
      const b = i % count;
      this.segment(points[2 * a]!, points[2 * a + 1]!, points[2 * b]!, points[2 * b + 1]!, radius);
    }
  }

  disk(x: number, y: number, radius: number, colour: Rgb) {
    this.segment(x, y, x, y, radius);
    this.paint(colour);
  }
}
