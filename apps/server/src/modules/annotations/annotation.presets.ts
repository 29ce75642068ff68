/**
 * The project's track set: the tracks used on its videos (by name, case-insensitive), with the colour, hot key and
 * order of their latest use, so a new video gets the lab's usual tracks in one click.
 */
import { desc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { annotationConfigs } from '../../db/schema.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { type ConfigResponse, listConfigs } from './annotation.service.js';

export interface TrackPreset {
  name: string;
  color: string;
  hotkey: string | null;
  order: number;
  video_count: number;
}

export async function projectTrackPresets(context: AppContext, projectUuid: string): Promise<TrackPreset[]> {
  // Newest first, without the ranges: the first row of a name gives its colour and order, the first row of it
  // with a key gives its key (a track made without one does not erase the lab's habit).
  const rows = await context.db
    .select({
      name: annotationConfigs.name,
      color: annotationConfigs.color,
      hotkey: annotationConfigs.hotkey,
      order: annotationConfigs.order,
    })
    .from(annotationConfigs)
    .where(eq(annotationConfigs.projectUuid, projectUuid))
    .orderBy(desc(annotationConfigs.createdAt));
  const byName = new Map<string, Omit<TrackPreset, 'order'> & { order: number }>();
  for (const row of rows) {
    const key = row.name.toLowerCase();
    const preset = byName.get(key);
    if (!preset) byName.set(key, { ...row, video_count: 1 });
    else {
      preset.video_count++;
      preset.hotkey ??= row.hotkey;
    }
  }
  const presets = [...byName.values()].sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
  // A key may have served different tracks: the first track in order keeps it.
  const usedKeys = new Set<string>();
  return presets.map((preset, index) => {
    const hotkey = preset.hotkey && !usedKeys.has(preset.hotkey) ? preset.hotkey : null;
    if (hotkey) usedKeys.add(hotkey);
    return { ...preset, hotkey, order: index };
  });
}

/**
 * Gives the video the project's track set: every preset whose name the video lacks (a hot key the video already
 * uses is left off). Answers the video's tracks.
 */
export async function applyTrackPresets(
  context: AppContext,
  video: VideoRow,
  userId: number,
): Promise<ConfigResponse[]> {
  const presets = await projectTrackPresets(context, video.projectUuid);
  const existing = await context.db
    .select({ name: annotationConfigs.name, hotkey: annotationConfigs.hotkey, order: annotationConfigs.order })
    .from(annotationConfigs)
    .where(eq(annotationConfigs.videoUuid, video.videoUuid));
  const names = new Set(existing.map((row) => row.name.toLowerCase()));
  const keys = new Set(existing.map((row) => row.hotkey).filter((key): key is string => key !== null));
  const firstOrder = existing.reduce((max, row) => Math.max(max, row.order + 1), 0);
  const missing = presets.filter((preset) => !names.has(preset.name.toLowerCase()));
  if (missing.length > 0) {
    await context.db
      .insert(annotationConfigs)
      .values(
        missing.map((preset, index) => ({
          projectUuid: video.projectUuid,
          videoUuid: video.videoUuid,
          name: preset.name,
          color: preset.color,
          hotkey: preset.hotkey && !keys.has(preset.hotkey) ? preset.hotkey : null,
          order: firstOrder + index,
          createdById: userId,
        })),
      )
      // Two clicks at once: the second adds nothing rather than failing on the unique names.
      .onConflictDoNothing();
  }
  return listConfigs(context, video);
}
