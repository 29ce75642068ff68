import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dlcConfigYaml, makeTruth } from '../pose-files.test-support.js';
import { skeletonFromConfig } from './dlc-config.js';
import { PoseFileError } from './pose-data.js';

const PARTS = ['nose', 'left_ear', 'right_ear', 'tail_base'];
const single = makeTruth(10, { single: PARTS });

/** The message of the PoseFileError on `config` that reading throws (fails on any other outcome). */
function refusal(text: string, bodyparts = PARTS): string {
  try {
    skeletonFromConfig(text, bodyparts);
  } catch (error) {
    expect(error).toBeInstanceOf(PoseFileError);
    expect((error as PoseFileError).field).toBe('config');
    return (error as PoseFileError).message;
  }
  throw new Error('the config was accepted');
}

describe("DeepLabCut's config.yaml skeleton", () => {
  it('reads the skeleton of a config as DeepLabCut writes it, each edge once', () => {
    const text = dlcConfigYaml(single, [
      ['nose', 'left_ear'],
      ['nose', 'right_ear'],
      ['left_ear', 'nose'],
      ['left_ear', 'tail_base'],
    ]).toString();
    expect(skeletonFromConfig(text, PARTS)).toEqual([
      ['nose', 'left_ear'],
      ['nose', 'right_ear'],
      ['left_ear', 'tail_base'],
    ]);
  });

  it('reads a multi-animal config, flow-style pairs, numbers as names and a byte-order mark', () => {
    const pair = makeTruth(10, { mouse1: ['nose', 'tail'], mouse2: ['nose', 'tail'], single: ['object'] });
    const multi = dlcConfigYaml(pair, [['nose', 'tail']], { multi: true }).toString();
    expect(multi).toContain('bodyparts: MULTI!');
    expect(skeletonFromConfig(multi, ['nose', 'tail', 'object'])).toEqual([['nose', 'tail']]);
    expect(skeletonFromConfig('\uFEFFskeleton: [[nose, "1"], [1, tail_base]]\n', ['nose', '1', 'tail_base'])).toEqual([
      ['nose', '1'],
      ['1', 'tail_base'],
    ]);
  });

  it('gives no edges for an empty or null skeleton', () => {
    expect(skeletonFromConfig(dlcConfigYaml(single, []).toString(), PARTS)).toEqual([]);
    expect(skeletonFromConfig('skeleton: []\n', PARTS)).toEqual([]);
    expect(skeletonFromConfig('Task: openfield\nskeleton:\n', PARTS)).toEqual([]);
  });

  it('refuses what is not YAML, or not a config, naming where and what', () => {
    expect(refusal('skeleton:\n- [nose, left_ear\nbodyparts: [\n')).toMatch(
      /^config\.yaml is not valid YAML \(line \d+, column \d+\): /,
    );
    expect(refusal('skeleton: [[nose, left_ear]]\nskeleton: []\n')).toMatch(
      /not valid YAML \(line 2, column 1\): Map keys must be unique/,
    );
    expect(refusal('- nose\n- left_ear\n')).toBe(
      'config.yaml holds no DeepLabCut settings: expected "key: value" lines such as "skeleton:".',
    );
    expect(refusal('')).toMatch(/holds no DeepLabCut settings/);
    expect(refusal('Task: openfield\nbodyparts: [nose]\n')).toBe(
      'config.yaml has no "skeleton": list the edges as pairs of body parts, e.g. "- [nose, neck]".',
    );
  });

  it('refuses a skeleton that is not pairs of the file’s body parts, naming the edge', () => {
    expect(refusal('skeleton: nose-left_ear\n')).toBe(
      '"skeleton" must be a list of pairs of body parts, e.g. "- [nose, neck]"; it is "nose-left_ear".',
    );
    expect(refusal('skeleton:\n- [nose, left_ear]\n- [nose, left_ear, tail_base]\n')).toBe(
      'Edge 2 of "skeleton" is not a pair of body part names (it is a list of 3).',
    );
    expect(refusal('skeleton:\n- nose\n')).toBe(
      'Edge 1 of "skeleton" is not a pair of body part names (it is "nose").',
    );
    expect(refusal('skeleton:\n- [nose, {a: 1}]\n')).toMatch(/^Edge 1 of "skeleton" is not a pair/);
    expect(refusal('skeleton:\n- [nose, null]\n')).toMatch(/^Edge 1 of "skeleton" is not a pair/);
    expect(refusal('skeleton:\n- [nose, nose]\n')).toBe('Edge 1 of "skeleton" joins "nose" to itself.');
    expect(
      refusal(
        dlcConfigYaml(single, [
          ['nose', 'left_ear'],
          ['tailbase', 'spine'],
        ]).toString(),
      ),
    ).toBe(
      'Edge 2 of "skeleton" names "tailbase" and "spine", which the pose file does not have; its body parts: nose, left_ear, right_ear, tail_base.',
    );
  });

  it('answers edges or a refusal on "config" for any text, never another error', () => {
    const known = new Set(PARTS);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc
            .array(fc.tuple(fc.constantFrom(...PARTS, 'x', '1', '[', ':'), fc.constantFrom(...PARTS, '-', '{}')), {
              maxLength: 6,
            })
            .map((edges) => `skeleton:\n${edges.map(([a, b]) => `- - ${a}\n  - ${b}`).join('\n')}\n`),
        ),
        (text) => {
          try {
            const edges = skeletonFromConfig(text, PARTS);
            for (const [a, b] of edges) {
              expect(known.has(a) && known.has(b) && a !== b).toBe(true);
            }
          } catch (error) {
            expect(error).toBeInstanceOf(PoseFileError);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
