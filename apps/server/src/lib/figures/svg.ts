/**
 * What the server's SVG figures share (the location figures of ADR 025, the batch plots of ADR 035): numbers to two
 * decimals, colours, escaped text, and words with a white halo that stay readable over any picture.
 */
import type { Rgb } from './raster.js';

/** A coordinate or length as SVG text: at most two decimals, no trailing zeros. */
export const svgNumber = (value: number) => String(Number(value.toFixed(2)));

export const hexColour = (colour: Rgb) => `#${colour.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

export const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/** Words with a white halo, readable over any picture. */
export const textStyle = (size: number) =>
  `font-family="Helvetica, Arial, sans-serif" font-size="${svgNumber(size)}" stroke="#ffffff" stroke-width="${svgNumber(size / 5)}" paint-order="stroke" stroke-linejoin="round"`;
