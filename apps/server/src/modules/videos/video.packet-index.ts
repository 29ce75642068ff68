/**
 * A video's stored packet index (issue 21, ADR 018) and the proofs of clean starts made on it (ADR 006): read
 * from the file once — by the processing job — and then only from the database, by the thumbnail, the playback
 * copy's plan, and the analyses' clean starts.
 */
import { eq, sql } from 'drizzle-orm';
import type { CleanStart, ProofCache } from '../../adapters/media/clean-start.js';
import type { MediaInput } from '../../adapters/media/input-policy.js';
import { decodePacketIndex, encodePacketIndex, type PacketIndex } from '../../adapters/media/packet-index.js';
import type { AppContext } from '../../context.js';
import { videoSeekIndexes } from '../../db/schema.js';

export interface StoredPacketIndex {
  index: PacketIndex;
  /** Proofs made so far ("seek:valid" → the start, or false); add to it and pass it to `storeProofs`. */
  proofs: ProofCache;
  /** The proofs' keys as loaded, so only new ones are written back. */
  known: ReadonlySet<string>;
}

/** The video's packet index and proofs; read from the file (`input`) and stored when it has none yet. */
export async function loadPacketIndex(
  context: AppContext,
  videoUuid: string,
  input: MediaInput,
  signal?: AbortSignal,
): Promise<StoredPacketIndex> {
  const read = async () => {
    const [row] = await context.db.select().from(videoSeekIndexes).where(eq(videoSeekIndexes.videoUuid, videoUuid));
    const index = row && decodePacketIndex(row.packetIndex);
    return row && index ? { index, proofs: row.proofs as Record<string, CleanStart | false> } : null;
  };
  let stored = await read();
  if (!stored) {
    const index = await context.media.packetIndex(input, signal);
    const packetIndex = encodePacketIndex(index);
    // Two readers may race (a run created while the video is processed): the first write wins, both use it.
    await context.db
      .insert(videoSeekIndexes)
      .values({ videoUuid, packetIndex, proofs: {} })
      .onConflictDoUpdate({
        target: videoSeekIndexes.videoUuid,
        set: { packetIndex, proofs: {} },
        // Only over a row this version cannot read (written before the format changed).
        setWhere: sql`length(${videoSeekIndexes.packetIndex}) < 24 or get_byte(${videoSeekIndexes.packetIndex}, 0) <> 2`,
      });
    stored = (await read()) ?? { index, proofs: {} };
  }
  const proofs: ProofCache = new Map(Object.entries(stored.proofs));
  return { index: stored.index, proofs, known: new Set(proofs.keys()) };
}

/** Adds the proofs made since `loadPacketIndex` to the stored ones. */
export async function storeProofs(context: AppContext, videoUuid: string, stored: StoredPacketIndex): Promise<void> {
  const fresh = Object.fromEntries([...stored.proofs].filter(([key]) => !stored.known.has(key)));
  if (Object.keys(fresh).length === 0) return;
  await context.db
    .update(videoSeekIndexes)
    .set({ proofs: sql`${videoSeekIndexes.proofs} || ${JSON.stringify(fresh)}::jsonb` })
    .where(eq(videoSeekIndexes.videoUuid, videoUuid));
}
