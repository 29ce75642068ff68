import { describe, expect, it } from 'vitest';
import type { Range } from './bouts';
import {
  boutFromFrames,
  boutFromTimes,
  createMarking,
  deleteSelected,
  drawBout,
  edgeTarget,
  moveEdge,
  pressTrackKey,
  rebaseTrack,
  recordSaved,
  redo,
  select,
  undo,
} from './marking';

const video = { fps: 30, end: 60 };
const f = (n: number) => n / 30;

describe('marking by keys', () => {
  it('the hot key starts a bout at the current frame and the same key ends it', () => {
    let outcome = pressTrackKey(createMarking({ g: [] }), 'g', 30, video, 'Grooming');
    expect(outcome.state.open).toEqual({ g: 30 });
    expect(outcome.edit).toBeUndefined();
    outcome = pressTrackKey(outcome.state, 'g', 75, video, 'Grooming');
    expect(outcome.state.open).toEqual({});
    expect(outcome.state.ranges.g).toEqual([[f(30), f(75)]]);
    expect(outcome.edit).toEqual({ track: 'g', change: { remove: [], add: [[f(30), f(75)]] } });
    expect(outcome.state.selected).toEqual({ track: 'g', range: [f(30), f(75)] });
  });

  it('a bout is at least one frame, in either order, and ends with the video', () => {
    expect(boutFromFrames(40, 40, video)).toEqual([f(40), f(41)]);
    expect(boutFromFrames(50, 40, video)).toEqual([f(40), f(50)]);
    expect(boutFromFrames(1799, 1799, video)).toEqual([f(1799), f(1800)]);
    expect(boutFromFrames(1790, 5000, video)).toEqual([f(1790), f(1800)]);
  });

  it('merges with an overlapping bout of the track and says so', () => {
    const start = createMarking({ g: [[f(10), f(20)]] });
    const outcome = pressTrackKey(pressTrackKey(start, 'g', 15, video, 'Grooming').state, 'g', 40, video, 'Grooming');
    expect(outcome.state.ranges.g).toEqual([[f(10), f(40)]]);
    expect(outcome.message).toBe('The bout overlapped another bout of "Grooming" and was merged with it.');
    expect(outcome.edit?.change).toEqual({ remove: [[f(10), f(20)]], add: [[f(10), f(40)]] });
  });

  it('keeps tracks apart: two keys can be open at once', () => {
    let state = pressTrackKey(createMarking(), 'g', 10, video, 'G').state;
    state = pressTrackKey(state, 'r', 12, video, 'R').state;
    state = pressTrackKey(state, 'g', 20, video, 'G').state;
    expect(state.open).toEqual({ r: 12 });
    expect(state.ranges).toEqual({ g: [[f(10), f(20)]] });
  });
});

describe('marking by mouse', () => {
  it('a drag draws a bout snapped to frame boundaries, in either direction', () => {
    expect(boutFromTimes(1.01, 0.49, video)).toEqual([f(15), f(30)]);
    const outcome = drawBout(createMarking(), 'g', 2.0, 2.5, video, 'G');
    expect(outcome.state.ranges.g).toEqual([[f(60), f(75)]]);
  });

  it('an edge moves to a frame, keeps at least one frame, and merges when it reaches a neighbour', () => {
    const bout: Range = [f(30), f(60)];
    expect(edgeTarget(bout, 'end', 1.52, video)).toEqual([f(30), f(46)]);
    expect(edgeTarget(bout, 'end', 0.5, video)).toEqual([f(30), f(31)]);
    expect(edgeTarget(bout, 'start', 3, video)).toEqual([f(59), f(60)]);
    const state = createMarking({
      g: [
        [f(30), f(60)],
        [f(90), f(120)],
      ],
    });
    const moved = moveEdge(state, 'g', bout, 'end', f(100), video, 'Grooming');
    expect(moved.state.ranges.g).toEqual([[f(30), f(120)]]);
    expect(moved.edit?.change).toEqual({
      remove: [
        [f(30), f(60)],
        [f(90), f(120)],
      ],
      add: [[f(30), f(120)]],
    });
    expect(moved.message).toContain('merged');
  });

  it('deletes the selected bout', () => {
    const state = select(createMarking({ g: [[1, 2]] }), { track: 'g', range: [1, 2] });
    const outcome = deleteSelected(state);
    expect(outcome.state.ranges.g).toEqual([]);
    expect(outcome.edit).toEqual({ track: 'g', change: { remove: [[1, 2]], add: [] } });
    expect(deleteSelected(outcome.state).edit).toBeUndefined();
  });
});

describe('undo and redo', () => {
  it('undo reverses an edit (a merge included) and redo makes it again; both answer the change to save', () => {
    const start = createMarking({ g: [[f(10), f(20)]] });
    const drawn = drawBout(start, 'g', f(15), f(40), video, 'G');
    const undone = undo(drawn.state);
    expect(undone.state.ranges.g).toEqual([[f(10), f(20)]]);
    expect(undone.edit).toEqual({ track: 'g', change: { remove: [[f(10), f(40)]], add: [[f(10), f(20)]] } });
    const redone = redo(undone.state);
    expect(redone.state.ranges.g).toEqual([[f(10), f(40)]]);
    expect(redo(redone.state).message).toBe('Nothing to redo.');
    expect(undo(createMarking()).message).toBe('Nothing to undo.');
  });

  it('a new edit clears redo', () => {
    const drawn = drawBout(createMarking(), 'g', 1, 2, video, 'G');
    const undone = undo(drawn.state);
    expect(undone.state.redo).toHaveLength(1);
    expect(drawBout(undone.state, 'g', 3, 4, video, 'G').state.redo).toHaveLength(0);
  });
});

describe('after someone else saved', () => {
  it("puts the edits not yet saved on top of the server's list", () => {
    const state = createMarking({ g: [[1, 2]] });
    const rebased = rebaseTrack(
      state,
      'g',
      [
        [1, 2],
        [5, 6],
      ],
      [{ remove: [], add: [[3, 4]] }],
    );
    expect(rebased.ranges.g).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
  });
});

describe('an import', () => {
  it('is shown and undoable, but not saved again', () => {
    const state = recordSaved(createMarking({ g: [[1, 2]] }), 'g', [[3, 4]]);
    expect(state.ranges.g).toEqual([[3, 4]]);
    const undone = undo(state);
    expect(undone.state.ranges.g).toEqual([[1, 2]]);
    expect(undone.edit).toEqual({ track: 'g', change: { remove: [[3, 4]], add: [[1, 2]] } });
  });
});
