/**
 * OpenCV's own computation of the counting definition (ADR 006), for tests: opencv.js 4.12 (OpenCV's WebAssembly
 * build, packaged as @techstark/opencv-js, a dev dependency) doing what a lab's notebook does —
 *
 *   blurred = cv2.blur(gray, (3, 3)); count = cv2.countNonZero((cv2.absdiff(blurred, previous) > threshold)[roi])
 *
 * Shared by opencv.test.ts and the lab-shaped video tests; never imported by the app.
 */
import { createRequire } from 'node:module';
import type * as OpenCv from '@techstark/opencv-js';
import type { Rect } from './intensity.js';

export type Cv = typeof OpenCv;

/**
 * opencv.js compiles its WebAssembly on load; its classes exist once the runtime is initialised. The module is
 * a thenable that resolves to itself, so it is handed back inside an object, never awaited.
 */
export function loadOpenCv(): Promise<{ cv: Cv }> {
  const cv = createRequire(import.meta.url)('@techstark/opencv-js') as Cv & { onRuntimeInitialized?: () => void };
  return new Promise((resolve) => {
    const ready = () => {
      loaded = cv;
      resolve({ cv });
    };
    if (typeof cv.Mat === 'function') ready();
    else cv.onRuntimeInitialized = ready;
  });
}

let loaded: Cv | undefined;

/** The loaded OpenCV (after loadOpenCv). */
function opencv(): Cv {
  if (!loaded) throw new Error('call loadOpenCv() first');
  return loaded;
}

/** A gray OpenCV matrix holding `pixels` (the caller deletes it). */
export function grayMat(pixels: Uint8Array, width: number, height: number): OpenCv.Mat {
  const cv = opencv();
  const mat = new cv.Mat(height, width, cv.CV_8UC1);
  mat.data.set(pixels);
  return mat;
}

/** `cv2.blur(gray, (3, 3))`, with OpenCV's defaults (anchor at the centre, BORDER_DEFAULT = BORDER_REFLECT_101). */
export function openCvBlur(gray: OpenCv.Mat): OpenCv.Mat {
  const cv = opencv();
  const blurred = new cv.Mat();
  cv.blur(gray, blurred, new cv.Size(3, 3));
  return blurred;
}

/** `cv2.threshold(cv2.absdiff(current, previous), threshold, 255, THRESH_BINARY)`: 255 where the difference > threshold. */
export function openCvChanged(current: OpenCv.Mat, previous: OpenCv.Mat, threshold: number): OpenCv.Mat {
  const cv = opencv();
  const difference = new cv.Mat();
  cv.absdiff(current, previous, difference);
  const changed = new cv.Mat();
  cv.threshold(difference, changed, threshold, 255, cv.THRESH_BINARY);
  difference.delete();
  return changed;
}

export function openCvCountIn(changed: OpenCv.Mat, roi: Rect): number {
  const cv = opencv();
  const view = changed.roi(new cv.Rect(roi.x, roi.y, roi.width, roi.height));
  const count = cv.countNonZero(view);
  view.delete();
  return count;
}

/** The ROI-sized 0/1 mask of `changed` inside `roi`. */
export function openCvMaskIn(changed: OpenCv.Mat, roi: Rect): number[] {
  const cv = opencv();
  const view = changed.roi(new cv.Rect(roi.x, roi.y, roi.width, roi.height));
  // copyTo packs the view's rows (opencv.js's clone of a view keeps the parent's row stride in `data`).
  const copy = new cv.Mat();
  view.copyTo(copy);
  const mask = Array.from(copy.data, (v) => (v === 0 ? 0 : 1));
  view.delete();
  copy.delete();
  return mask;
}
