import type { TrashKind } from './api';

export const KIND_LABELS: Record<TrashKind, string> = {
  project: 'Project',
  subject: 'Subject',
  video: 'Video',
  analysis: 'Analysis run',
  annotation_track: 'Annotation track',
};

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

/** What a delete confirmation says about where things go: "moved to the trash for N days; restore … from Trash". */
export function trashNotice(days: number, count = 1): string {
  const them = plural(count, 'it', 'them');
  return `${plural(count, 'It is', 'They are')} moved to the trash for ${days} ${plural(days, 'day', 'days')}; restore ${them} from Trash.`;
}

/** The "Empty trash" confirmation: how many items go for good. */
export function emptyTrashWarning(count: number): string {
  return `${count} ${plural(count, 'item is', 'items are')} purged for good, with ${plural(count, 'its', 'their')} files. This cannot be undone.`;
}

/** What a deleted item took with it: "2 videos · 3 runs · 41 events · 1 track" (empty when nothing). */
export function containsSummary(contains: {
  videos: number;
  analyses: number;
  events: number;
  annotation_tracks: number;
}): string {
  const parts: string[] = [];
  if (contains.videos) parts.push(`${contains.videos} ${plural(contains.videos, 'video', 'videos')}`);
  if (contains.analyses) parts.push(`${contains.analyses} ${plural(contains.analyses, 'run', 'runs')}`);
  if (contains.events) parts.push(`${contains.events} ${plural(contains.events, 'event', 'events')}`);
  if (contains.annotation_tracks)
    parts.push(`${contains.annotation_tracks} ${plural(contains.annotation_tracks, 'track', 'tracks')}`);
  return parts.join(' · ');
}
