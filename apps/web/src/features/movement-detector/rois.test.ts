import { describe, expect, it } from 'vitest';
import {
  activeRoiIndex,
  addRoiAt,
  containedPicture,
  deleteRoi,
  initialRois,
  moveRoi,
  type Roi,
  rectFromDrag,
  roisForRequest,
  roisFromParameters,
  setRoiRect,
  snapToFrame,
} from './rois';

const FPS = 30;
const rect = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });
const three: Roi[] = [
  { start_s: 0, rect: rect(0, 0, 100, 100) },
  { start_s: 1, rect: rect(10, 10, 50, 50) },
  { start_s: 2, rect: null },
];

describe('active ROI at a time', () => {
  it('is the last ROI whose start is not after the time', () => {
    expect(activeRoiIndex(three, 0)).toBe(0);
    expect(activeRoiIndex(three, 0.99)).toBe(0);
    expect(activeRoiIndex(three, 1)).toBe(1);
    expect(activeRoiIndex(three, 1.5)).toBe(1);
    expect(activeRoiIndex(three, 2)).toBe(2);
    expect(activeRoiIndex(three, 100)).toBe(2);
  });

  it('is the first one for a single ROI', () => {
    expect(activeRoiIndex(initialRois(), 42)).toBe(0);
  });
});

describe('snapping to frames', () => {
  it('gives the start of the frame showing at a time', () => {
    // The player shows frame 45 at its middle, 45.5 / 30 s.
    expect(snapToFrame(45.5 / FPS, FPS)).toBe(45 / FPS);
    expect(snapToFrame(1, FPS)).toBe(1);
    expect(snapToFrame(-1, FPS)).toBe(0);
  });
});

describe('adding an ROI', () => {
  it('inserts at the current frame with a copy of the rectangle in force there', () => {
    const { rois, index } = addRoiAt(three, 1.5 + 0.5 / FPS, FPS, 5);
    expect(index).toBe(2);
    expect(rois.map((r) => r.start_s)).toEqual([0, 1, 1.5, 2]);
    expect(rois[2]!.rect).toEqual(rect(10, 10, 50, 50));
    // A copy: changing the new one leaves the old one alone.
    const changed = setRoiRect(rois, 2, rect(1, 2, 3, 4));
    expect(changed[1]!.rect).toEqual(rect(10, 10, 50, 50));
    expect(changed[2]!.rect).toEqual(rect(1, 2, 3, 4));
  });

  it('appends after the last one', () => {
    const { rois, index } = addRoiAt(three, 3, FPS, 5);
    expect(index).toBe(3);
    expect(rois.map((r) => r.start_s)).toEqual([0, 1, 2, 3]);
    expect(rois[3]!.rect).toBeNull();
  });

  it('adds nothing where an ROI already starts, answering that one', () => {
    expect(addRoiAt(three, 0, FPS, 5)).toEqual({ rois: three, index: 0 });
    expect(addRoiAt(three, 1 + 0.4 / FPS, FPS, 5)).toEqual({ rois: three, index: 1 });
  });

  it('stays within the video: past the end it lands on the last frame', () => {
    const { rois } = addRoiAt(initialRois(), 9, FPS, 5);
    expect(rois.map((r) => r.start_s)).toEqual([0, 149 / FPS]);
  });

  it('does not change the list it was given', () => {
    const before = structuredClone(three);
    addRoiAt(three, 0.5, FPS, 5);
    expect(three).toEqual(before);
  });
});

describe('moving an ROI', () => {
  it('moves to the frame under the pointer', () => {
    expect(moveRoi(three, 1, 0.5 + 0.3 / FPS, FPS, 5).map((r) => r.start_s)).toEqual([0, 0.5, 2]);
  });

  it('stops one frame after the previous ROI', () => {
    expect(moveRoi(three, 1, -3, FPS, 5).map((r) => r.start_s)).toEqual([0, 1 / FPS, 2]);
  });

  it('stops one frame before the next ROI', () => {
    expect(moveRoi(three, 1, 2.5, FPS, 5).map((r) => r.start_s)).toEqual([0, 59 / FPS, 2]);
  });

  it('keeps the last ROI inside the video', () => {
    expect(moveRoi(three, 2, 10, FPS, 5).map((r) => r.start_s)).toEqual([0, 1, 149 / FPS]);
  });

  it('never moves the first ROI', () => {
    expect(moveRoi(three, 0, 0.5, FPS, 5)).toEqual(three);
  });

  it('leaves the list unchanged when there is no free frame', () => {
    const tight: Roi[] = [
      { start_s: 0, rect: null },
      { start_s: 1 / FPS, rect: null },
      { start_s: 2 / FPS, rect: null },
    ];
    expect(moveRoi(tight, 1, 0.9, FPS, 5)).toEqual(tight);
  });

  it('keeps the order whatever the pointer does', () => {
    for (let t = -1; t < 6; t += 0.037) {
      const starts = moveRoi(three, 1, t, FPS, 5).map((r) => r.start_s);
      expect(starts[0]).toBe(0);
      expect(starts[1]! > starts[0]!).toBe(true);
      expect(starts[2]! > starts[1]!).toBe(true);
    }
  });
});

describe('deleting an ROI', () => {
  it('removes it; the one before then lasts until the next', () => {
    const rois = deleteRoi(three, 1);
    expect(rois.map((r) => r.start_s)).toEqual([0, 2]);
    expect(activeRoiIndex(rois, 1.5)).toBe(0);
  });

  it('never removes the first ROI', () => {
    expect(deleteRoi(three, 0)).toEqual(three);
    expect(deleteRoi(initialRois(), 0)).toEqual(initialRois());
  });
});

describe('drawing a rectangle', () => {
  const picture = { width: 320, height: 240 };

  it('maps displayed pixels to video pixels by the displayed scale', () => {
    // Shown at 640×480: every displayed pixel is half a video pixel.
    const box = { width: 640, height: 480 };
    expect(rectFromDrag({ x: 0, y: 0 }, { x: 400, y: 480 }, box, picture)).toEqual(rect(0, 0, 200, 240));
    expect(rectFromDrag({ x: 100, y: 60 }, { x: 40, y: 20 }, box, picture)).toEqual(rect(20, 10, 30, 20));
  });

  it('accounts for the bars of a picture shown with object-fit: contain', () => {
    // 320×240 in an 800×300 box: scaled to 400×300, centred with 200 px bars left and right.
    const box = { width: 800, height: 300 };
    expect(containedPicture(box, picture)).toEqual({ left: 200, top: 0, width: 400, height: 300 });
    expect(rectFromDrag({ x: 200, y: 0 }, { x: 450, y: 150 }, box, picture)).toEqual(rect(0, 0, 200, 120));
  });

  it('clamps to the picture when the drag leaves it', () => {
    const box = { width: 320, height: 240 };
    expect(rectFromDrag({ x: -50, y: -50 }, { x: 500, y: 500 }, box, picture)).toEqual(rect(0, 0, 320, 240));
    expect(rectFromDrag({ x: 300, y: 200 }, { x: 400, y: 300 }, box, picture)).toEqual(rect(300, 200, 20, 40));
  });

  it('widens to whole pixels', () => {
    const box = { width: 640, height: 480 };
    // 11 → 5.5 and 31 → 15.5 video pixels: pixels 5 to 15 are touched.
    expect(rectFromDrag({ x: 11, y: 11 }, { x: 31, y: 31 }, box, picture)).toEqual(rect(5, 5, 11, 11));
  });

  it('treats a tiny drag as a click', () => {
    const box = { width: 320, height: 240 };
    expect(rectFromDrag({ x: 10, y: 10 }, { x: 11, y: 80 }, box, picture)).toBeNull();
    expect(rectFromDrag({ x: 10, y: 10 }, { x: 80, y: 12 }, box, picture)).toBeNull();
  });

  it('gives nothing for a drag entirely in the bars', () => {
    const box = { width: 800, height: 300 };
    expect(rectFromDrag({ x: 10, y: 10 }, { x: 150, y: 200 }, box, picture)).toBeNull();
  });

  it('stays inside the picture for any drag', () => {
    const box = { width: 517, height: 293 };
    for (let i = 0; i < 200; i++) {
      const p = (n: number) => ({ x: ((n * 7919) % 900) - 200, y: ((n * 104729) % 600) - 150 });
      const r = rectFromDrag(p(i), p(i + 13), box, picture);
      if (!r) continue;
      expect(Number.isInteger(r.x) && Number.isInteger(r.y) && Number.isInteger(r.width)).toBe(true);
      expect(r.x >= 0 && r.y >= 0 && r.width >= 1 && r.height >= 1).toBe(true);
      expect(r.x + r.width <= 320 && r.y + r.height <= 240).toBe(true);
    }
  });
});

describe('ROIs and the API', () => {
  it('sends undrawn ROIs as the whole picture', () => {
    expect(roisForRequest(three, { width: 320, height: 240 })).toEqual([
      { start_s: 0, x: 0, y: 0, width: 100, height: 100 },
      { start_s: 1, x: 10, y: 10, width: 50, height: 50 },
      { start_s: 2, x: 0, y: 0, width: 320, height: 240 },
    ]);
  });

  it('reads a run’s ROIs back, sorted, the first at 0 s', () => {
    expect(
      roisFromParameters([
        { start_s: 2, x: 1, y: 2, width: 3, height: 4 },
        { start_s: 0, x: 5, y: 6, width: 7, height: 8 },
      ]),
    ).toEqual([
      { start_s: 0, rect: rect(5, 6, 7, 8) },
      { start_s: 2, rect: rect(1, 2, 3, 4) },
    ]);
  });

  it('falls back to one whole-picture ROI when there are none or they are unusable', () => {
    expect(roisFromParameters([])).toEqual(initialRois());
    expect(roisFromParameters(undefined)).toEqual(initialRois());
    expect(roisFromParameters([{ start_s: 0, x: 1 }])).toEqual(initialRois());
  });
});
