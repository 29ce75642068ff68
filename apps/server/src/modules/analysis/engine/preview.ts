/**
 * The preview of a movement-detection run: the same computation on a short window, plus a picture of the
 * window's last frame with the changed pixels highlighted and the ROIs drawn, so thresholds can be tuned.
 */
import { crc32, deflateSync } from 'node:zlib';
import { detectEvents, type EventDetectionParameters } from './events.js';
import type { Rect } from './intensity.js';
import { analyseFrameRange, type FrameRangeTask, type MovementParameters } from './movement.js';
import { roiCursor } from './plan.js';

export interface PreviewTask extends Omit<FrameRangeTask, 'parameters' | 'wholePicture'> {
  parameters: MovementParameters & EventDetectionParameters;
}

export interface PreviewResult {
  /** values[i] is frame startFrame + i. */
  values: Float64Array;
  /** Event times (seconds from the start of the video) inside the window. */
  eventTimes: Float64Array;
  threshold: number;
  png: Uint8Array;
}

const CHANGED = [239, 68, 68] as const;
const ACTIVE_ROI = [250, 204, 21] as const;
const OTHER_ROI = [56, 189, 248] as const;

export async function runPreview(task: PreviewTask, signal?: AbortSignal): Promise<PreviewResult> {
  const result = await analyseFrameRange({ ...task, wholePicture: true }, { signal, keepLastFrame: true });
  const detected = detectEvents(
    { values: result.values, times: null, fps: task.source.fps },
    {
      event_threshold_k: task.parameters.event_threshold_k,
      event_threshold: task.parameters.event_threshold,
      refractory_s: task.parameters.refractory_s,
    },
  );
  const eventTimes = Float64Array.from(detected.onsets, (i) => (task.startFrame + i) / task.source.fps);
  const { width, height } = task.source;
  const rgb = new Uint8Array(width * height * 3);
  const pixels = result.lastFrame?.pixels;
  if (pixels) for (let i = 0; i < pixels.length; i++) rgb.fill(pixels[i]!, i * 3, i * 3 + 3);
  const mask = result.lastFrame?.mask;
  if (mask) {
    // Blend the highlight over the frame so the moving animal stays visible under it.
    for (let y = 0; y < mask.roi.height; y++) {
      for (let x = 0; x < mask.roi.width; x++) {
        if (mask.mask[y * mask.roi.width + x] !== 1) continue;
        const at = ((mask.roi.y + y) * width + mask.roi.x + x) * 3;
        for (let c = 0; c < 3; c++) rgb[at + c] = Math.round(rgb[at + c]! * 0.3 + CHANGED[c]! * 0.7);
      }
    }
  }
  const lastFrame = task.startFrame + Math.max(0, result.values.length - 1);
  const active = roiCursor(task.parameters.rois, task.source.fps)(lastFrame);
  task.parameters.rois.forEach((roi, index) => {
    drawRectangle(rgb, width, height, roi, index === active ? ACTIVE_ROI : OTHER_ROI, index === active ? 2 : 1);
  });
  return { values: result.values, eventTimes, threshold: detected.threshold, png: encodePng(rgb, width, height) };
}

function drawRectangle(
  rgb: Uint8Array,
  width: number,
  height: number,
  rect: Rect,
  colour: readonly number[],
  thickness: number,
) {
  const paint = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    rgb.set(colour, (y * width + x) * 3);
  };
  for (let t = 0; t < thickness; t++) {
    for (let x = rect.x; x < rect.x + rect.width; x++) {
      paint(x, rect.y + t);
      paint(x, rect.y + rect.height - 1 - t);
    }
    for (let y = rect.y; y < rect.y + rect.height; y++) {
      paint(rect.x + t, y);
      paint(rect.x + rect.width - 1 - t, y);
    }
  }
}

/** An 8-bit RGB PNG: signature, IHDR, one zlib-compressed IDAT (each row prefixed by filter 0), IEND. */
export function encodePng(rgb: Uint8Array, width: number, height: number): Uint8Array {
  const rowBytes = width * 3;
  const raw = new Uint8Array((rowBytes + 1) * height);
  for (let y = 0; y < height; y++) raw.set(rgb.subarray(y * rowBytes, (y + 1) * rowBytes), y * (rowBytes + 1) + 1);
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  const chunks = [
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', new Uint8Array(0)),
  ];
  const signature = Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10]);
  const png = new Uint8Array(signature.length + chunks.reduce((n, c) => n + c.length, 0));
  png.set(signature, 0);
  let offset = signature.length;
  for (const part of chunks) {
    png.set(part, offset);
    offset += part.length;
  }
  return png;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  const typeAndData = out.subarray(4, 8 + data.length);
  typeAndData.set(Buffer.from(type, 'ascii'), 0);
  typeAndData.set(data, 4);
  view.setUint32(8 + data.length, crc32(typeAndData));
  return out;
}
