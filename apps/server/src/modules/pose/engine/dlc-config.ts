/**
 * DeepLabCut's project file, `config.yaml`: its `skeleton` — a list of pairs of body part names — gives a DeepLabCut
 * set the edges its CSV and `.h5` do not carry (SLEAP's files carry their own). Read with the `yaml` library (YAML
 * 1.2's core schema: plain data, no tags that run code, at most 100 aliases), in the pose worker thread, and checked
 * against the body parts of the file it comes with. Anything that does not fit is a `PoseFileError` on the field
 * `config` naming what.
 */
import { isMap, parseDocument } from 'yaml';
import { PoseFileError } from './pose-data.js';

/** DeepLabCut's own configs are a few kilobytes; a larger one is not a config. */
export const MAX_CONFIG_BYTES = 256 * 1024;

const configError = (message: string) => new PoseFileError('config', message);

/** A YAML scalar as a body part name: text, or a number written bare (`- - 1`); anything else is not a name. */
function partName(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object') return 'a mapping';
  return `"${String(value).slice(0, 40)}"`;
}

/**
 * The edges of `config.yaml`'s skeleton as [body part, body part] pairs, each edge once (a repeat, in either
 * direction, is left out). An empty or null skeleton gives no edges. Throws on a file that is not YAML, has no
 * `skeleton`, or whose skeleton is not pairs of the file's body parts.
 */
export function skeletonFromConfig(text: string, bodyparts: readonly string[]): [string, string][] {
  const document = parseDocument(text.replace(/^\uFEFF/, ''), { uniqueKeys: true });
  const [problem] = document.errors;
  if (problem) {
    const [line, column] = problem.linePos?.[0] ? [problem.linePos[0].line, problem.linePos[0].col] : [null, null];
    const where = line === null ? '' : ` (line ${line}, column ${column})`;
    // The library's message ends its first line with the place, then quotes the text: the place is said once.
    const message = (problem.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    throw configError(`config.yaml is not valid YAML${where}: ${message}`);
  }
  if (!isMap(document.contents)) {
    throw configError('config.yaml holds no DeepLabCut settings: expected "key: value" lines such as "skeleton:".');
  }
  const config = document.toJS({ maxAliasCount: 100 }) as Record<string, unknown>;
  if (!('skeleton' in config)) {
    throw configError('config.yaml has no "skeleton": list the edges as pairs of body parts, e.g. "- [nose, neck]".');
  }
  const skeleton = config.skeleton;
  if (skeleton === null || skeleton === undefined) return [];
  if (!Array.isArray(skeleton)) {
    throw configError(
      `"skeleton" must be a list of pairs of body parts, e.g. "- [nose, neck]"; it is ${describe(skeleton)}.`,
    );
  }
  const known = new Set(bodyparts);
  const edges: [string, string][] = [];
  const seen = new Set<string>();
  for (const [index, entry] of skeleton.entries()) {
    const edge = `Edge ${index + 1} of "skeleton"`;
    const ends = Array.isArray(entry) && entry.length === 2 ? entry.map(partName) : null;
    if (!ends || ends[0] === null || ends[1] === null) {
      throw configError(`${edge} is not a pair of body part names (it is ${describe(entry)}).`);
    }
    const [a, b] = ends as [string, string];
    if (a === b) throw configError(`${edge} joins "${a}" to itself.`);
    const unknown = [a, b].filter((part) => !known.has(part));
    if (unknown.length > 0) {
      throw configError(
        `${edge} names ${unknown.map((part) => `"${part}"`).join(' and ')}, which the pose file does not have; its body parts: ${bodyparts.join(', ')}.`,
      );
    }
    const key = JSON.stringify([a, b].sort());
    if (seen.has(key)) continue;
    seen.add(key);
    edges.push([a, b]);
  }
  return edges;
}
