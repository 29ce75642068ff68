/**
 * Pieces of a location run that ran side by side (ADR 027): each piece after the first starts from no state, tracks
 * a warm-up of frames before its first without keeping their positions, and records the state it reached there
 * (`entry`) and after its last frame (`exit`). A tracker's next positions depend only on its state and the frames, so
 * a piece whose entry equals the exit of the piece before is exactly what a single pass gives; one that does not is
 * tracked again from that exit. Run in plan order, this makes the joined positions a single pass's, value for value.
 */
import type { TrackerHandoff } from './tracker.js';

/**
 * The most frames a piece tracks before its first to catch up with a single pass's tracker state (ADR 027):
 * `body_core`'s running means meet a single pass's to the bit after about 350 frames (306–334 measured on generated
 * scenes: a difference shrinks by 0.9 a frame until rounding merges it), `eztrack`'s state within 1–4 frames. The
 * pieces' clean starts are proven this far before their first frame; `config.locationWarmUpFrames` may use fewer;
 * the video's processing proves those starts ahead (clean-starts.ts `prepareCleanStarts`).
 */
export const LOCATION_WARM_UP_FRAMES = 600;

export interface PieceStates {
  entry: TrackerHandoff;
  exit: TrackerHandoff;
  /** [frame, hash] of the reference's frames the piece decoded itself (ADR 029). */
  checked?: [number, string][];
}

/**
 * Whether the pieces' own decodes gave the very pictures the reference is the median of (ADR 029): every frame of
 * `frames` must have been decoded by a piece, with the same hash. `hashes` null: nothing to check (the reference
 * came from proven clean starts, or from another video).
 */
export function referenceMatches(
  reference: { frames: readonly number[]; hashes: readonly string[] | null },
  pieces: readonly Pick<PieceStates, 'checked'>[],
): boolean {
  const { hashes } = reference;
  if (!hashes) return true;
  const seen = new Map(pieces.flatMap((piece) => piece.checked ?? []));
  return reference.frames.every((frame, i) => seen.get(frame) === hashes[i]);
}

/** JSON with object keys sorted (a database's JSON type may store keys in another order). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : inner,
  );
}

/** Whether two tracker states are the same (every field, to the bit as JSON numbers carry them). */
export function sameState(a: TrackerHandoff, b: TrackerHandoff): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/**
 * Walks the pieces in plan order; tracks again (`retrack(index, from)`, which answers the new exit) every piece
 * whose entry is not the exit of the piece before as finally tracked. Answers the last piece's exit and which
 * pieces were tracked again.
 */
export async function reconcilePieces(
  pieces: readonly PieceStates[],
  retrack: (index: number, from: TrackerHandoff) => Promise<TrackerHandoff>,
): Promise<{ exit: TrackerHandoff | null; retracked: number[] }> {
  const retracked: number[] = [];
  let exit: TrackerHandoff | null = pieces[0]?.exit ?? null;
  for (let index = 1; index < pieces.length; index++) {
    const piece = pieces[index] as PieceStates;
    if (exit !== null && !sameState(piece.entry, exit)) {
      retracked.push(index);
      exit = await retrack(index, exit);
    } else exit = piece.exit;
  }
  return { exit, retracked };
}
