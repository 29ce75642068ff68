import type { TrashItem, TrashKind } from './api';

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

/**
 * What a deleted item took with it, itself left out: "2 videos · 3 runs · 41 events · 1 track" (empty when nothing).
 * The server's counts include the item (a video's `videos` is 1).
 */
export function containsSummary(item: Pick<TrashItem, 'kind' | 'contains'>): string {
  const self = (kind: TrashKind) => (item.kind === kind ? 1 : 0);
  const counts: [number, string, string][] = [
    [item.contains.videos - self('video'), 'video', 'videos'],
    [item.contains.analyses - self('analysis'), 'run', 'runs'],
    [item.contains.events, 'event', 'events'],
    [item.contains.annotation_tracks - self('annotation_track'), 'track', 'tracks'],
  ];
  return counts
    .filter(([count]) => count > 0)
    .map(([count, one, many]) => `${count} ${plural(count, one, many)}`)
    .join(' · ');
}
