/**
 * A plot of one measure by group (the batch plots of ADR 035), laid out once and drawn as SVG and as PNG:
 *
 * - each run's value as a point, spread sideways inside its group's column by a deterministic jitter (the k-th
 *   value of a group, in the table's order, at the fractional part of k × 0.618… — the golden-ratio sequence, which
 *   fills the column evenly and gives the same picture every time);
 * - a box: the quartiles (given: R's type-7 quantiles, computed by the caller) and the median, with whiskers to the
 *   most extreme value within 1.5 × IQR of the box (Tukey's rule; values beyond are the points alone);
 * - the group mean ± SEM as a diamond with an error bar beside the box.
 *
 * The y axis runs from the lowest to the highest thing drawn, widened to round ticks (1, 2 or 5 × 10ⁿ apart). The
 * PNG has no words (raster.ts); the SVG carries the title, the axis label, tick values, the group names and n.
 */
import { encodePng } from './png.js';
import { Canvas, INK, type Rgb } from './raster.js';
import { escapeXml, hexColour, svgNumber as n, textStyle } from './svg.js';

export interface GroupPlotInput {
  title: string;
  /** The y axis' label: the measure and its unit. */
  axisLabel: string;
  groups: {
    name: string;
    /** The group's values, in the table's order. */
    values: number[];
    mean: number | null;
    sem: number | null;
    q1: number | null;
    median: number | null;
    q3: number | null;
  }[];
}

/** The points' colours by group (Okabe & Ito's colour-blind-safe set). */
const GROUP_COLOURS: readonly Rgb[] = [
  [0, 114, 178],
  [213, 94, 0],
  [0, 158, 115],
  [204, 121, 167],
  [230, 159, 0],
  [86, 180, 233],
];
const GOLDEN = 0.6180339887498949;
const BOX_GREY: Rgb = [90, 90, 90];

export interface GroupPlotLayout {
  width: number;
  height: number;
  title: string;
  axisLabel: string;
  plot: { left: number; top: number; right: number; bottom: number };
  ticks: { value: number; y: number; label: string }[];
  groups: {
    name: string;
    n: number;
    x: number;
    colour: Rgb;
    points: { x: number; y: number; value: number }[];
    box: { left: number; right: number; q1: number; median: number; q3: number } | null;
    whiskers: { low: number; high: number } | null;
    mean: { x: number; y: number; low: number; high: number; value: number; sem: number | null } | null;
  }[];
  pointRadius: number;
}

/** Round tick values covering [low, high]: 1, 2 or 5 × 10ⁿ apart, about five of them. */
export function niceTicks(low: number, high: number): number[] {
  if (!(high > low)) {
    const centre = Number.isFinite(low) ? low : 0;
    const spread = Math.abs(centre) > 0 ? Math.abs(centre) * 0.1 : 1;
    return niceTicks(centre - spread, centre + spread);
  }
  const rough = (high - low) / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].find((m) => m * power >= rough) ?? 10) * power;
  const first = Math.floor(low / step);
  const last = Math.ceil(high / step);
  return Array.from({ length: last - first + 1 }, (_, i) => Number(((first + i) * step).toPrecision(12)));
}

/** Tukey's whiskers: the most extreme values within 1.5 × IQR of the box. */
export function whiskerEnds(values: readonly number[], q1: number, q3: number): { low: number; high: number } {
  const reach = 1.5 * (q3 - q1);
  const inside = values.filter((value) => value >= q1 - reach && value <= q3 + reach);
  return { low: Math.min(...inside), high: Math.max(...inside) };
}

export function layoutGroupPlot(input: GroupPlotInput): GroupPlotLayout {
  const column = 150;
  const plot = { left: 90, top: 50, right: 90 + column * Math.max(1, input.groups.length), bottom: 390 };
  const width = plot.right + 30;
  const height = 460;
  const drawn = input.groups.flatMap((group) => [
    ...group.values,
    ...(group.mean !== null ? [group.mean - (group.sem ?? 0), group.mean + (group.sem ?? 0)] : []),
  ]);
  const ticks = niceTicks(Math.min(...drawn), Math.max(...drawn));
  const bottomValue = ticks[0]!;
  const topValue = ticks[ticks.length - 1]!;
  const y = (value: number) =>
    plot.bottom - ((value - bottomValue) / (topValue - bottomValue)) * (plot.bottom - plot.top);
  const boxWidth = column * 0.42;
  return {
    width,
    height,
    title: input.title,
    axisLabel: input.axisLabel,
    plot,
    ticks: ticks.map((value) => ({ value, y: y(value), label: String(value) })),
    pointRadius: 4,
    groups: input.groups.map((group, g) => {
      const x = plot.left + column * (g + 0.5) - column * 0.08;
      const hasBox = group.q1 !== null && group.q3 !== null && group.median !== null && group.values.length > 0;
      const whiskers = hasBox ? whiskerEnds(group.values, group.q1!, group.q3!) : null;
      return {
        name: group.name,
        n: group.values.length,
        x,
        colour: GROUP_COLOURS[g % GROUP_COLOURS.length]!,
        points: group.values.map((value, k) => ({
          x: x + (((k * GOLDEN) % 1) - 0.5) * boxWidth * 0.8,
          y: y(value),
          value,
        })),
        box: hasBox
          ? {
              left: x - boxWidth / 2,
              right: x + boxWidth / 2,
              q1: y(group.q1!),
              median: y(group.median!),
              q3: y(group.q3!),
            }
          : null,
        whiskers: whiskers ? { low: y(whiskers.low), high: y(whiskers.high) } : null,
        mean:
          group.mean === null
            ? null
            : {
                x: x + boxWidth / 2 + 22,
                y: y(group.mean),
                low: y(group.mean - (group.sem ?? 0)),
                high: y(group.mean + (group.sem ?? 0)),
                value: group.mean,
                sem: group.sem,
              },
      };
    }),
  };
}

export function renderGroupPlotSvg(layout: GroupPlotLayout): string {
  const { plot } = layout;
  const font = 13;
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${layout.width}" height="${layout.height}" viewBox="0 0 ${layout.width} ${layout.height}">`,
    `<title>${escapeXml(layout.title)}</title>`,
    `<rect x="0" y="0" width="${layout.width}" height="${layout.height}" fill="#ffffff"/>`,
    `<text id="plot-title" x="${n(layout.width / 2)}" y="26" text-anchor="middle" ${textStyle(font + 2)}>${escapeXml(layout.title)}</text>`,
    '<g id="axis">',
    `<line x1="${plot.left}" y1="${plot.top}" x2="${plot.left}" y2="${plot.bottom}" stroke="#000000"/>`,
    `<line x1="${plot.left}" y1="${plot.bottom}" x2="${plot.right}" y2="${plot.bottom}" stroke="#000000"/>`,
    ...layout.ticks.flatMap((tick) => [
      `<line x1="${plot.left - 5}" y1="${n(tick.y)}" x2="${plot.left}" y2="${n(tick.y)}" stroke="#000000"/>`,
      `<text class="tick" x="${plot.left - 8}" y="${n(tick.y + 4)}" text-anchor="end" ${textStyle(font - 1)}>${escapeXml(tick.label)}</text>`,
    ]),
    `<text id="axis-label" transform="translate(22 ${n((plot.top + plot.bottom) / 2)}) rotate(-90)" text-anchor="middle" ${textStyle(font)}>${escapeXml(layout.axisLabel)}</text>`,
    '</g>',
  ];
  for (const group of layout.groups) {
    const colour = hexColour(group.colour);
    parts.push(`<g class="group" data-group="${escapeXml(group.name)}" data-n="${group.n}">`);
    if (group.box && group.whiskers) {
      const { box, whiskers } = group;
      const cap = (box.right - box.left) / 4;
      parts.push(
        `<g class="box" stroke="#5a5a5a" fill="none">`,
        `<line x1="${n(group.x)}" y1="${n(whiskers.high)}" x2="${n(group.x)}" y2="${n(box.q3)}"/>`,
        `<line x1="${n(group.x)}" y1="${n(box.q1)}" x2="${n(group.x)}" y2="${n(whiskers.low)}"/>`,
        `<line x1="${n(group.x - cap)}" y1="${n(whiskers.high)}" x2="${n(group.x + cap)}" y2="${n(whiskers.high)}"/>`,
        `<line x1="${n(group.x - cap)}" y1="${n(whiskers.low)}" x2="${n(group.x + cap)}" y2="${n(whiskers.low)}"/>`,
        `<rect x="${n(box.left)}" y="${n(box.q3)}" width="${n(box.right - box.left)}" height="${n(box.q1 - box.q3)}"/>`,
        `<line class="median" x1="${n(box.left)}" y1="${n(box.median)}" x2="${n(box.right)}" y2="${n(box.median)}" stroke-width="2"/>`,
        '</g>',
      );
    }
    parts.push(`<g class="points" fill="${colour}" fill-opacity="0.75" stroke="${colour}">`);
    for (const point of group.points) {
      parts.push(
        `<circle class="point" cx="${n(point.x)}" cy="${n(point.y)}" r="${layout.pointRadius}" data-value="${point.value}"/>`,
      );
    }
    parts.push('</g>');
    if (group.mean) {
      const { mean } = group;
      const d = 6;
      parts.push(
        `<g class="mean-sem" data-mean="${mean.value}" data-sem="${mean.sem ?? ''}" stroke="#000000">`,
        `<line x1="${n(mean.x)}" y1="${n(mean.low)}" x2="${n(mean.x)}" y2="${n(mean.high)}"/>`,
        `<line x1="${n(mean.x - 4)}" y1="${n(mean.low)}" x2="${n(mean.x + 4)}" y2="${n(mean.low)}"/>`,
        `<line x1="${n(mean.x - 4)}" y1="${n(mean.high)}" x2="${n(mean.x + 4)}" y2="${n(mean.high)}"/>`,
        `<polygon points="${n(mean.x)},${n(mean.y - d)} ${n(mean.x + d)},${n(mean.y)} ${n(mean.x)},${n(mean.y + d)} ${n(mean.x - d)},${n(mean.y)}" fill="#000000"/>`,
        '</g>',
      );
    }
    parts.push(
      `<text class="group-label" x="${n(group.x + 11)}" y="${plot.bottom + 22}" text-anchor="middle" ${textStyle(font)}>${escapeXml(group.name)}</text>`,
      `<text class="group-n" x="${n(group.x + 11)}" y="${plot.bottom + 40}" text-anchor="middle" ${textStyle(font - 2)}>n = ${group.n}</text>`,
      '</g>',
    );
  }
  parts.push('</svg>', '');
  return parts.join('\n');
}

export function renderGroupPlotPng(layout: GroupPlotLayout): Uint8Array {
  const canvas = new Canvas(layout.width, layout.height);
  const { plot } = layout;
  canvas.polyline([plot.left, plot.top, plot.left, plot.bottom, plot.right, plot.bottom], 0.5, false);
  for (const tick of layout.ticks) canvas.segment(plot.left - 5, tick.y, plot.left, tick.y, 0.5);
  canvas.paint(INK);
  for (const group of layout.groups) {
    if (group.box && group.whiskers) {
      const { box, whiskers } = group;
      const cap = (box.right - box.left) / 4;
      canvas.polyline([box.left, box.q3, box.right, box.q3, box.right, box.q1, box.left, box.q1], 0.5, true);
      canvas.segment(group.x, whiskers.high, group.x, box.q3, 0.5);
      canvas.segment(group.x, box.q1, group.x, whiskers.low, 0.5);
      canvas.segment(group.x - cap, whiskers.high, group.x + cap, whiskers.high, 0.5);
      canvas.segment(group.x - cap, whiskers.low, group.x + cap, whiskers.low, 0.5);
      canvas.paint(BOX_GREY);
      canvas.segment(box.left, box.median, box.right, box.median, 1);
      canvas.paint(BOX_GREY);
    }
    for (const point of group.points) canvas.segment(point.x, point.y, point.x, point.y, layout.pointRadius);
    canvas.paint(group.colour, 0.75);
    if (group.mean) {
      const { mean } = group;
      canvas.segment(mean.x, mean.low, mean.x, mean.high, 0.5);
      canvas.segment(mean.x - 4, mean.low, mean.x + 4, mean.low, 0.5);
      canvas.segment(mean.x - 4, mean.high, mean.x + 4, mean.high, 0.5);
      canvas.paint(INK);
      for (let d = 0; d <= 6; d += 0.5) canvas.segment(mean.x - (6 - d), mean.y - d, mean.x + (6 - d), mean.y - d, 0.6);
      for (let d = 0; d <= 6; d += 0.5) canvas.segment(mean.x - (6 - d), mean.y + d, mean.x + (6 - d), mean.y + d, 0.6);
      canvas.paint(INK);
    }
  }
  return encodePng(canvas.rgb, layout.width, layout.height, 3);
}
