import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import h5wasm from 'h5wasm/node';
import { afterAll, describe, expect, it } from 'vitest';
import { dlcCsv, makeTruth, sleapCsv, sleapH5 } from '../pose-files.test-support.js';
import { PoseFileError, placeOnVideo } from './pose-data.js';
import { parsePoseFile } from './read-pose.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'pose-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const truth = makeTruth(40, { mouse1: ['nose', 'tail'], mouse2: ['nose', 'tail'] });
const alone = makeTruth(40, { single: ['nose', 'tail'] });

/** Reads a file the way an import does: either a set laid over a 40-frame video, or a PoseFileError — nothing else. */
async function readOrRefuse(bytes: Buffer, offset: number | null = null) {
  const file = path.join(dir, `f-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, bytes);
  try {
    return placeOnVideo(await parsePoseFile(file, offset === null ? 40 : null), 40, offset);
  } catch (error) {
    if (error instanceof PoseFileError) return error;
    throw error;
  } finally {
    rmSync(file, { force: true });
  }
}

/** A change of a file's bytes: a cut, an insertion of junk, or a byte overwritten. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.constantFrom(',', '\n', '"', 'x', 'nan', ',,', '\u0000', 'scorer', '-1', '1e999', '\r\n'),
  }),
  fc.record({ kind: fc.constant('byte' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
);

type Change =
  | { kind: 'cut'; at: number; length: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'byte'; at: number; value: number };

function mutate(bytes: Buffer, changes: Change[]) {
  let out = Buffer.from(bytes);
  for (const change of changes) {
    const at = change.at % Math.max(1, out.length);
    if (change.kind === 'cut') out = Buffer.concat([out.subarray(0, at), out.subarray(at + change.length)]);
    else if (change.kind === 'insert')
      out = Buffer.concat([out.subarray(0, at), Buffer.from(change.text), out.subarray(at)]);
    else out[at] = change.value;
  }
  return out;
}

describe('reading pose files', () => {
  it('answers a set or a PoseFileError for any damaged DeepLabCut or SLEAP CSV, never another error', async () => {
    const sources = [dlcCsv(truth, { multi: true }), dlcCsv(alone), sleapCsv(truth)];
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: 2 }),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        async (which, changes) => {
          const result = await readOrRefuse(mutate(sources[which]!, changes));
          if (result instanceof PoseFileError) expect(result.message.length).toBeGreaterThan(10);
          else expect(result.frameCount).toBe(40);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers a set or a PoseFileError for a damaged SLEAP HDF5 file', async () => {
    const file = path.join(dir, 'sleap.h5');
    await sleapH5(file, truth, [[0, 1]], 'matlab');
    const bytes = readFileSync(file);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ kind: fc.constant('byte' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        async (changes) => {
          const result = await readOrRefuse(mutate(bytes, changes));
          expect(result instanceof PoseFileError || result.frameCount === 40).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('places a file of chosen frames by frame_offset and refuses one past the video', async () => {
    const labelled = dlcCsv(alone, { labelledFrames: [0, 10, 20] });
    const placed = await readOrRefuse(labelled, 19);
    expect(placed).not.toBeInstanceOf(PoseFileError);
    const past = await readOrRefuse(labelled, 20);
    expect(past).toBeInstanceOf(PoseFileError);
    expect((past as PoseFileError).field).toBe('frame_offset');
    expect((past as PoseFileError).message).toMatch(/Frame 20 of the file \(video frame 40 from frame_offset 20\)/);
  });

  it("tells SLEAP's two orders apart by the frame count when the shapes fit both (2 tracks, 2 nodes)", async () => {
    for (const order of ['matlab', 'standard'] as const) {
      const file = path.join(dir, `ambiguous-${order}.h5`);
      await sleapH5(file, truth, [[0, 1]], order);
      const columns = await readOrRefuse(readFileSync(file));
      expect(columns).not.toBeInstanceOf(PoseFileError);
      const { values } = columns as Exclude<typeof columns, PoseFileError>;
      // Keypoint 3 is mouse2's tail: x and likelihood at frame 7 as written.
      const point = truth.point(7, 'mouse2', 'tail')!;
      expect([values[9]![7], values[11]![7]]).toEqual([Math.fround(point[0]), Math.fround(point[2])]);
    }
  });

  it('reads short rows as pandas does: a scorer row that stops early, an unlabelled image whose row stops early', async () => {
    // Hand-labelled multi-animal CollectedData as SLEAP's own test files have it (written here from the layout).
    const text = [
      'scorer,me,me,me,me',
      'individuals,a1,a1,single,single',
      'bodyparts,nose,nose,top,top',
      'coords,x,y,x,y',
      'labeled-data/v/img000.png,1,2,3,4',
      'labeled-data/v/img001.png,5,6',
      'labeled-data/v/img002.png',
      'labeled-data/v/img003.png,,,7.5,8',
    ].join('\n');
    const placed = await readOrRefuse(Buffer.from(text));
    expect(placed).not.toBeInstanceOf(PoseFileError);
    const { values } = placed as Exclude<typeof placed, PoseFileError>;
    const point = (keypoint: number, frame: number) => [values[keypoint * 3]![frame], values[keypoint * 3 + 1]![frame]];
    expect([point(0, 0), point(1, 0), point(0, 1), point(1, 1), point(0, 2), point(1, 3)]).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
      [Number.NaN, Number.NaN],
      [Number.NaN, Number.NaN],
      [7.5, 8],
    ]);
    const tooLong = await readOrRefuse(Buffer.from(`${text}\nlabeled-data/v/img004.png,1,2,3,4,5`));
    expect((tooLong as PoseFileError).message).toBe('Row 9 has 6 cells; the header has 5.');
    const shortBodyparts = await readOrRefuse(
      Buffer.from(text.replace('bodyparts,nose,nose,top,top', 'bodyparts,nose')),
    );
    expect((shortBodyparts as PoseFileError).message).toBe('Header row 3 has 2 cells; the coords row has 5.');
  });

  it('names a SLEAP .slp file as such and says how to get the analysis file SLEAP exports', async () => {
    // The top level of SLEAP's labels format: frames, instances and points tables (tiny stand-ins here).
    await h5wasm.ready;
    const file = path.join(dir, 'labels.slp');
    const h5 = new h5wasm.File(file, 'w');
    for (const name of ['frames', 'instances', 'points']) h5.create_dataset({ name, data: new Float64Array([0, 1]) });
    h5.close();
    const refused = await readOrRefuse(readFileSync(file));
    expect(refused).toBeInstanceOf(PoseFileError);
    expect((refused as PoseFileError).message).toMatch(
      /^A SLEAP labels or predictions file \(\.slp\), not an analysis file/,
    );
  });
});
