/** A finished run's results: its series read back, and the events and summary stored when it completes. */
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { analyses, analysisEvents } from '../../db/schema.js';
import type { Series } from './engine/events.js';
import type { DetectResult } from './engine/tasks.js';

type AnalysisRow = typeof analyses.$inferSelect;

/** A failure retrying cannot fix: the run fails at once with this message. */
export class PermanentRunFailure extends Error {}

export async function readFloat64(context: AppContext, key: string): Promise<Float64Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of await context.storage.read(key)) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  // Copy into a fresh, aligned buffer: a Buffer's offset is not always a multiple of 8.
  const values = new Float64Array(bytes.length / 8);
  new Uint8Array(values.buffer).set(bytes);
  return values;
}

/** Stores the events and the summary and marks the run succeeded — unless it was revoked meanwhile. */
export async function completeRun(
  context: AppContext,
  run: AnalysisRow,
  series: Series,
  detected: DetectResult,
  keys: { seriesKey: string; timesKey: string | null; seriesCsvKey: string },
): Promise<void> {
  const now = new Date();
  const startedAt = run.startedAt ?? run.createdAt;
  const elapsedS = Math.max(0.001, (now.getTime() - startedAt.getTime()) / 1000);
  const samples = series.values.length;
  const durationS = series.times ? (series.times.at(-1) ?? 0) : samples / series.fps;
  const eventCount = detected.eventTimes.length;
  const summary = {
    samples,
    valid_samples: detected.validSamples,
    duration_s: durationS,
    events: eventCount,
    event_rate_per_min: durationS > 0 ? (eventCount / durationS) * 60 : null,
    threshold: detected.threshold,
    noise_top: detected.noiseTop,
    freezing: detected.freezing,
    frames_per_second: run.kind === 'movement_detection' ? samples / elapsedS : null,
  };
  await context.db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ status: analyses.status })
      .from(analyses)
      .where(eq(analyses.analysisUuid, run.analysisUuid))
      .for('update');
    if (locked?.status !== 'running') return;
    await tx.delete(analysisEvents).where(eq(analysisEvents.analysisUuid, run.analysisUuid));
    const rows = Array.from(detected.eventTimes, (time, i) => ({
      analysisUuid: run.analysisUuid,
      id: i + 1,
      time,
      originalTime: time,
    }));
    for (let i = 0; i < rows.length; i += 1000) await tx.insert(analysisEvents).values(rows.slice(i, i + 1000));
    await tx
      .update(analyses)
      .set({
        status: 'succeeded',
        progress: 1,
        error: null,
        finishedAt: now,
        summary,
        ...keys,
        sampleCount: samples,
        nextEventId: rows.length + 1,
      })
      .where(eq(analyses.analysisUuid, run.analysisUuid));
  });
}

/** Loads a run's series (values, and times for an imported series that has its own). */
export async function readSeries(context: AppContext, run: AnalysisRow, fps: number): Promise<Series> {
  if (!run.seriesKey) throw new PermanentRunFailure('The source run has no time series.');
  const values = await readFloat64(context, run.seriesKey);
  const times = run.timesKey ? await readFloat64(context, run.timesKey) : null;
  return { values, times, fps };
}
