/**
 * A figure's layout (figure.ts) as SVG, the picture's own size in user units: the reference picture embedded as
 * a grey PNG, then the heat cells, the zones, the path, the colour bar and the scale bar, each group with an id
 * (and the numbers it draws in data- attributes) so a reader — or a test — can find them.
 */
import { encodePng, greyBytes } from '../../../../lib/figures/png.js';
import { escapeXml, hexColour, svgNumber, textStyle } from '../../../../lib/figures/svg.js';
import { type FigureLayout, formatSeconds, MARKER_RADIUS, START_COLOUR, viridis } from './figure.js';

const n = svgNumber;
const hex = hexColour;

export function renderFigureSvg(layout: FigureLayout, title: string): string {
  const { width, height, stroke, fontSize, heat } = layout;
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<title>${escapeXml(title)}</title>`,
  ];
  if (layout.reference) {
    const png = Buffer.from(encodePng(greyBytes(layout.reference), width, height, 1)).toString('base64');
    const href = `data:image/png;base64,${png}`;
    parts.push(
      `<image id="reference" x="0" y="0" width="${width}" height="${height}" preserveAspectRatio="none" style="image-rendering:pixelated" href="${href}" xlink:href="${href}"/>`,
    );
  } else {
    parts.push(`<rect id="reference" x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`);
  }
  if (heat) {
    parts.push(
      `<g id="heatmap" data-bin-px="${heat.binPx}" data-max-seconds="${heat.maxSeconds}" fill-opacity="${heat.opacity}">`,
    );
    for (let row = 0; row < heat.rows; row++) {
      for (let column = 0; column < heat.columns; column++) {
        const seconds = heat.seconds[row * heat.columns + column]!;
        if (seconds === 0) continue;
        parts.push(
          `<rect x="${column * heat.binPx}" y="${row * heat.binPx}" width="${heat.binPx}" height="${heat.binPx}" fill="${hex(viridis(seconds / heat.maxSeconds))}" data-seconds="${seconds}"/>`,
        );
      }
    }
    parts.push('</g>');
  }
  if (layout.zones.length > 0) {
    parts.push(`<g id="zones" fill="none" stroke-width="${n(stroke * 1.5)}" stroke-linejoin="round">`);
    for (const zone of layout.zones) {
      const points = zone.points.map((point) => `${n(point[0])},${n(point[1])}`).join(' ');
      parts.push(
        `<g class="zone" data-name="${escapeXml(zone.name)}">`,
        `<polygon points="${points}" stroke="${hex(zone.colour)}"/>`,
        `<text x="${n(zone.label.x)}" y="${n(zone.label.y)}" fill="${hex(zone.colour)}" ${textStyle(fontSize)}>${escapeXml(zone.name)}</text>`,
        '</g>',
      );
    }
    parts.push('</g>');
  }
  if (layout.track) {
    const { runs, start, end, colour } = layout.track;
    // A run of one position is a dot: a zero-length segment with round caps.
    const d = runs
      .map((run) => {
        const moves = [`M${n(run[0]!)} ${n(run[1]!)}`];
        for (let i = 2; i < run.length; i += 2) moves.push(`L${n(run[i]!)} ${n(run[i + 1]!)}`);
        if (run.length === 2) moves.push(`L${n(run[0]!)} ${n(run[1]!)}`);
        return moves.join(' ');
      })
      .join(' ');
    const radius = MARKER_RADIUS * stroke;
    parts.push(
      '<g id="track">',
      `<path d="${d}" fill="none" stroke="${hex(colour)}" stroke-width="${n(stroke)}" stroke-linejoin="round" stroke-linecap="round"/>`,
    );
    if (start) {
      parts.push(
        `<circle id="track-start" cx="${n(start[0])}" cy="${n(start[1])}" r="${n(radius + stroke / 2)}" fill="${hex(START_COLOUR)}" stroke="#000000" stroke-width="${n(stroke)}"/>`,
      );
    }
    if (end) {
      parts.push(
        `<circle id="track-end" cx="${n(end[0])}" cy="${n(end[1])}" r="${n(radius + stroke / 2)}" fill="#000000" stroke="#ffffff" stroke-width="${n(stroke)}"/>`,
      );
    }
    parts.push('</g>');
  }
  if (heat) {
    const { backing, bar, labelX } = heat.colourBar;
    const stops = Array.from({ length: 9 }, (_, k) => {
      const t = k / 8;
      return `<stop offset="${n(t)}" stop-color="${hex(viridis(1 - t))}"/>`;
    });
    parts.push(
      `<g id="colour-bar" data-max-seconds="${heat.maxSeconds}">`,
      `<linearGradient id="viridis" x1="0" y1="0" x2="0" y2="1">${stops.join('')}</linearGradient>`,
      `<rect x="${n(backing.x)}" y="${n(backing.y)}" width="${n(backing.width)}" height="${n(backing.height)}" fill="#ffffff" fill-opacity="0.8"/>`,
      `<rect x="${n(bar.x)}" y="${n(bar.y)}" width="${n(bar.width)}" height="${n(bar.height)}" fill="url(#viridis)"/>`,
      `<text x="${n(labelX)}" y="${n(bar.y + fontSize * 0.8)}" text-anchor="end" fill="#000000" ${textStyle(fontSize)}>${formatSeconds(heat.maxSeconds)}</text>`,
      `<text x="${n(labelX)}" y="${n(bar.y + bar.height)}" text-anchor="end" fill="#000000" ${textStyle(fontSize)}>0 s</text>`,
      '</g>',
    );
  }
  if (layout.scaleBar) {
    const { backing, bar, label, units, unit, labelX, labelY } = layout.scaleBar;
    parts.push(
      `<g id="scale-bar" data-length="${units}" data-unit="${escapeXml(unit)}" data-px="${bar.width}">`,
      `<rect x="${n(backing.x)}" y="${n(backing.y)}" width="${n(backing.width)}" height="${n(backing.height)}" fill="#ffffff" fill-opacity="0.8"/>`,
      `<rect class="bar" x="${n(bar.x)}" y="${n(bar.y)}" width="${n(bar.width)}" height="${n(bar.height)}" fill="#000000"/>`,
      `<text x="${n(labelX)}" y="${n(labelY)}" text-anchor="middle" fill="#000000" ${textStyle(fontSize)}>${escapeXml(label)}</text>`,
      '</g>',
    );
  }
  parts.push('</svg>', '');
  return parts.join('\n');
}
