/**
 * A video's stored packet index (issue 21, ADR 018) and the proofs of clean starts made on it (ADR 006): read
 * from the file once — by the processing job — and then only from the database, by the thumbnail, the playback
 * copy's plan, and the analyses' clean starts.
 */
import { eq, inArray, sql } from 'drizzle-orm';
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

/**
 * A stored index read as base64 text: the embedded database's driver parses a bytea's hex text in JavaScript, many
 * times slower than Buffer's native base64 (a ten-minute video's index is 162 KB; a batch reads dozens).
 */
const storedColumns = {
  videoUuid: videoSeekIndexes.videoUuid,
  packetIndex: sql<string>`encode(${videoSeekIndexes.packetIndex}, 'base64')`,
  proofs: videoSeekIndexes.proofs,
};

/**
 * The stored packet indexes and proofs of many videos in one read (a batch's videos); a video without a readable
 * one is left out (its run reads or makes it itself).
 */
export async function loadStoredPacketIndexes(
  context: AppContext,
  videoUuids: string[],
): Promise<Map<string, StoredPacketIndex>> {
  const found = new Map<string, StoredPacketIndex>();
  if (videoUuids.length === 0) return found;
  const rows = await context.db
    .select(storedColumns)
    .from(videoSeekIndexes)
    .where(inArray(videoSeekIndexes.videoUuid, videoUuids));
  for (const row of rows) {
    const index = decodePacketIndex(Buffer.from(row.packetIndex, 'base64'));
    if (!index) continue;
    const proofs: ProofCache = new Map(Object.entries(row.proofs as Record<string, CleanStart | false>));
    found.set(row.videoUuid, { index, proofs, known: new Set(proofs.keys()) });
  }
  return found;
}

/** The video's packet index and proofs; read from the file (`input`) and stored when it has none yet. */
export async function loadPacketIndex(
  context: AppContext,
  videoUuid: string,
  input: MediaInput,
  signal?: AbortSignal,
): Promise<StoredPacketIndex> {
  const read = async () => {
    const [row] = await context.db
      .select(storedColumns)
      .from(videoSeekIndexes)
      .where(eq(videoSeekIndexes.videoUuid, videoUuid));
    const index = row && decodePacketIndex(Buffer.from(row.packetIndex, 'base64'));
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
