import { describe, expect, it } from 'vitest';
import type { Range } from './bouts';
import { drawTimeline, LANE_HEIGHT, laneTop, type TimelineModel, timelineColors } from './timeline-draw';

/** A 2D context that records the rectangles filled in each colour (jsdom has no canvas). */
function recordingContext() {
  const fills: { color: string; x: number; y: number; w: number; h: number }[] = [];
  const noop = () => {};
  const ctx = {
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    globalAlpha: 1,
    font: '',
    textBaseline: '',
    setTransform: noop,
    save: noop,
    restore: noop,
    beginPath: noop,
    moveTo: noop,
    lineTo: noop,
    stroke: noop,
    strokeRect: noop,
    setLineDash: noop,
    fillText: noop,
    fillRect(x: number, y: number, w: number, h: number) {
      fills.push({ color: String(this.fillStyle), x, y, w, h });
    },
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, fills };
}

const SIX_HOURS = 6 * 3600;
const colors = timelineColors(() => '');
const model = (ranges: Range[], view = { start: 0, span: SIX_HOURS }): TimelineModel => ({
  width: 1000,
  height: 100,
  dpr: 1,
  view,
  fps: 30,
  colors,
  lanes: [{ color: '#ff0000', ranges, pending: null, selected: null }],
});
const boutFills = <F extends { color: string }>(fills: F[]) => fills.filter((f) => f.color === '#ff0000');

describe('drawing the timeline', () => {
  const many: Range[] = Array.from({ length: 5000 }, (_, i) => [i * 4.32, i * 4.32 + 2]);

  it('zoomed out, bouts closer than a pixel are drawn as runs, never more rectangles than pixels', () => {
    const { ctx, fills } = recordingContext();
    expect(drawTimeline(ctx, model(many))).toBe(5000);
    expect(boutFills(fills).length).toBeLessThanOrEqual(1000);
    expect(boutFills(fills)[0]).toMatchObject({ x: 0, y: laneTop(0) + 3, h: LANE_HEIGHT - 6 });
  });

  it('zoomed in, only the bouts in the window are drawn, each at its place', () => {
    const { ctx, fills } = recordingContext();
    const shown = drawTimeline(ctx, model(many, { start: 100, span: 10 }));
    // Bouts starting at 99.36, 103.68 and 108 s touch the window [100, 110].
    expect(shown).toBe(3);
    const rects = boutFills(fills);
    expect(rects).toHaveLength(3);
    expect(rects[1]!.x).toBeCloseTo(((103.68 - 100) / 10) * 1000);
    expect(rects[1]!.w).toBeCloseTo((2 / 10) * 1000);
  });
});
