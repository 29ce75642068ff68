/**
 * A figure's layout (figure.ts) drawn into pixels (lib/figures/raster.ts) and written as PNG, the picture's own
 * size. No words (raster.ts says why): the SVG carries the zone names and the scale bar's length, and the PNG keeps
 * their places (the same backings and colours).
 */

import { encodePng } from '../../../../lib/figures/png.js';
import { type Box, Canvas, INK, PAPER } from '../../../../lib/figures/raster.js';
import { type FigureLayout, MARKER_RADIUS, START_COLOUR, viridis } from './figure.js';

/** The box filled top to bottom with viridis from 1 to 0 (the colour bar). */
function fillGradient(canvas: Canvas, box: Box) {
  const [top, bottom] = [Math.max(0, Math.round(box.y)), Math.min(canvas.height, Math.round(box.y + box.height))];
  for (let row = top; row < bottom; row++) {
    canvas.fillBox({ x: box.x, y: row, width: box.width, height: 1 }, viridis(1 - (row + 0.5 - box.y) / box.height));
  }
}

export function renderFigurePng(layout: FigureLayout): Uint8Array {
  const canvas = new Canvas(layout.width, layout.height, layout.reference);
  const { heat, stroke } = layout;
  if (heat) {
    for (let row = 0; row < heat.rows; row++) {
      for (let column = 0; column < heat.columns; column++) {
        const seconds = heat.seconds[row * heat.columns + column]!;
        if (seconds === 0) continue;
        const box = { x: column * heat.binPx, y: row * heat.binPx, width: heat.binPx, height: heat.binPx };
        canvas.fillBox(box, viridis(seconds / heat.maxSeconds), heat.opacity);
      }
    }
  }
  for (const zone of layout.zones) {
    canvas.polyline(
      zone.points.flatMap((point) => [point[0], point[1]]),
      (stroke * 1.5) / 2,
      true,
    );
    canvas.paint(zone.colour);
  }
  if (layout.track) {
    for (const run of layout.track.runs) canvas.polyline(run, stroke / 2, false);
    canvas.paint(layout.track.colour);
    const radius = MARKER_RADIUS * stroke;
    if (layout.track.start) {
      canvas.disk(layout.track.start[0], layout.track.start[1], radius + stroke, INK);
      canvas.disk(layout.track.start[0], layout.track.start[1], radius, START_COLOUR);
    }
    if (layout.track.end) {
      canvas.disk(layout.track.end[0], layout.track.end[1], radius + stroke, PAPER);
      canvas.disk(layout.track.end[0], layout.track.end[1], radius, INK);
    }
  }
  if (heat) {
    canvas.fillBox(heat.colourBar.backing, PAPER, 0.8);
    fillGradient(canvas, heat.colourBar.bar);
  }
  if (layout.scaleBar) {
    canvas.fillBox(layout.scaleBar.backing, PAPER, 0.8);
    canvas.fillBox(layout.scaleBar.bar, INK);
  }
  return encodePng(canvas.rgb, layout.width, layout.height, 3);
}
