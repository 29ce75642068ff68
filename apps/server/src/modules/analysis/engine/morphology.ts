/**
 * Binary morphology with a k×k square on a mask of 0/1 bytes (the ROI). Windows are clipped to the mask:
 * pixels outside it take no part (as OpenCV treats the image border), so a closing does not eat into regions
 * that touch the ROI's edge and an opening does not grow them.
 *
 * The square is separable, so each operation is a horizontal then a vertical pass, and each pass tests its
 * window with running counts of 1s: linear in the mask size whatever k is (the brief allows k up to 10000),
 * and both passes walk memory row by row. Erosion's window at x is [x − ⌊k/2⌋, x − ⌊k/2⌋ + k − 1]; dilation
 * uses the mirrored window, so an opening (erode, then dilate) never grows a region and a closing never
 * shrinks one, also for even k.
 */

/** Reusable buffers, so a frame's morphology allocates nothing once warmed up. */
export interface MorphologyScratch {
  rows: Uint8Array;
  counts: Int32Array;
}

export function morphologyScratch(): MorphologyScratch {
  return { rows: new Uint8Array(0), counts: new Int32Array(0) };
}

function windowOf(k: number, erode: boolean): { before: number; after: number } {
  const half = Math.floor(k / 2);
  const before = erode ? half : k - 1 - half;
  return { before, after: k - 1 - before };
}

/** Rows of `input` → `output`: each pixel tests the horizontal window around it. */
function horizontalPass(
  input: Uint8Array,
  output: Uint8Array,
  width: number,
  height: number,
  k: number,
  erode: boolean,
) {
  const { before, after } = windowOf(k, erode);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let ones = 0;
    for (let j = 0; j <= Math.min(after, width - 1); j++) ones += input[row + j]!;
    for (let x = 0; x < width; x++) {
      if (erode) {
        const cells = Math.min(x + after, width - 1) - Math.max(x - before, 0) + 1;
        output[row + x] = ones === cells ? 1 : 0;
      } else {
        output[row + x] = ones > 0 ? 1 : 0;
      }
      const entering = x + after + 1;
      if (entering < width) ones += input[row + entering]!;
      const leaving = x - before;
      if (leaving >= 0) ones -= input[row + leaving]!;
    }
  }
}

/** `input` → `output` along columns, kept as one running count per column while walking down the rows. */
function verticalPass(
  input: Uint8Array,
  output: Uint8Array,
  width: number,
  height: number,
  k: number,
  erode: boolean,
  counts: Int32Array,
) {
  const { before, after } = windowOf(k, erode);
  counts.fill(0, 0, width);
  for (let j = 0; j <= Math.min(after, height - 1); j++) {
    const row = j * width;
    for (let x = 0; x < width; x++) counts[x]! += input[row + x]!;
  }
  for (let y = 0; y < height; y++) {
    const row = y * width;
    if (erode) {
      const cells = Math.min(y + after, height - 1) - Math.max(y - before, 0) + 1;
      for (let x = 0; x < width; x++) output[row + x] = counts[x] === cells ? 1 : 0;
    } else {
      for (let x = 0; x < width; x++) output[row + x] = counts[x]! > 0 ? 1 : 0;
    }
    const entering = y + after + 1;
    if (entering < height) {
      const enteringRow = entering * width;
      for (let x = 0; x < width; x++) counts[x]! += input[enteringRow + x]!;
    }
    const leaving = y - before;
    if (leaving >= 0) {
      const leavingRow = leaving * width;
      for (let x = 0; x < width; x++) counts[x]! -= input[leavingRow + x]!;
    }
  }
}

function apply(mask: Uint8Array, width: number, height: number, k: number, erode: boolean, scratch: MorphologyScratch) {
  const size = width * height;
  if (scratch.rows.length < size) scratch.rows = new Uint8Array(size);
  if (scratch.counts.length < width) scratch.counts = new Int32Array(width);
  horizontalPass(mask, scratch.rows, width, height, k, erode);
  verticalPass(scratch.rows, mask, width, height, k, erode, scratch.counts);
}

export function erodeMask(mask: Uint8Array, width: number, height: number, k: number, scratch = morphologyScratch()) {
  apply(mask, width, height, k, true, scratch);
}

export function dilateMask(mask: Uint8Array, width: number, height: number, k: number, scratch = morphologyScratch()) {
  apply(mask, width, height, k, false, scratch);
}

/** Opening: removes changed specks narrower than k while keeping the shape of larger regions. */
export function openMask(mask: Uint8Array, width: number, height: number, k: number, scratch = morphologyScratch()) {
  apply(mask, width, height, k, true, scratch);
  apply(mask, width, height, k, false, scratch);
}

/** Closing: fills gaps narrower than k inside and between changed regions. */
export function closeMask(mask: Uint8Array, width: number, height: number, k: number, scratch = morphologyScratch()) {
  apply(mask, width, height, k, false, scratch);
  apply(mask, width, height, k, true, scratch);
}
