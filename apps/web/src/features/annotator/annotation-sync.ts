/**
 * Saves a video's annotation edits through the save queue (lib/save-queue): every edit is kept in localStorage until
 * the server acknowledges it, and sent as one PATCH `{version, add, remove}` based on the version last confirmed by the
 * server. The change sent is the edit re-applied to that confirmed list, so after a 409 (someone else saved) the same
 * edit is simply sent again on top of their version — nobody's work is lost — and the page is told, to show the merged
 * list and say so.
 *
 * One instance per user and video lives as long as the page or its unsaved edits: leaving the page while saves are
 * pending keeps them going.
 */
import { ApiError } from '@/lib/api-client';
import type { QueueItem } from '@/lib/save-queue/entry';
import { SaveQueue, type SaveStatus } from '@/lib/save-queue/save-queue';
import type { Tab } from '@/lib/save-queue/tab';
import { type AnnotationVideoRef, annotationsApi, type RangesConflict } from './api';
import { applyChange, diffRanges, isEmptyChange, type Range, type RangeChange } from './bouts';

export interface SaveItem {
  track: string;
  trackName: string;
  change: RangeChange;
}

export type SyncEvent =
  /** The track's list to show now: the server's, with the edits not yet saved on top. */
  | { type: 'rebase'; track: string; ranges: Range[]; notice: string | null; tone: 'info' | 'error' }
  /** The track no longer exists (deleted elsewhere). */
  | { type: 'gone'; track: string; trackName: string }
  /** An edit was refused for good (no right to change, or broken). */
  | { type: 'refused'; message: string };

interface Confirmed {
  ranges: Range[];
  version: number;
}

/** The API calls the sync makes; tests may hand in their own. */
export interface SyncTransport {
  ranges(track: string): Promise<Confirmed>;
  patch(track: string, version: number, change: RangeChange): Promise<Confirmed>;
}

export function httpTransport(ref: AnnotationVideoRef): SyncTransport {
  return {
    ranges: (track) => annotationsApi.ranges(ref, track),
    patch: (track, version, change) => annotationsApi.patchRanges(ref, track, version, change),
  };
}

const errorText = (error: ApiError) => {
  const errors = (error.body as { errors?: unknown } | null)?.errors;
  if (typeof errors === 'string') return errors;
  if (errors && typeof errors === 'object') return Object.values(errors).flat().map(String).join('\n');
  return error.message;
};

export class AnnotationSync {
  private readonly confirmed = new Map<string, Confirmed>();
  private readonly listeners = new Set<(event: SyncEvent) => void>();
  readonly queue: SaveQueue<SaveItem>;

  constructor(storageKey: string, transport: SyncTransport, tab?: Tab) {
    this.queue = new SaveQueue<SaveItem>({
      storageKey,
      tab,
      hooks: {
        send: ([item]) => this.send(transport, item!),
        onConflict: ([item], error) => this.conflict(item!, error),
        onRefused: ([item], error) => this.refused(item!, error),
        failureText: (error) => {
          if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
          return error.status >= 500 ? 'The server had a problem saving.' : errorText(error);
        },
      },
    });
  }

  /**
   * The list the server answered on load (or after an import): the base of the next save. An answer older than one
   * already confirmed (a read that crossed a save) is ignored; the newer list is answered.
   */
  setConfirmed(track: string, ranges: Range[], version: number): Range[] {
    const current = this.confirmed.get(track);
    if (current && current.version > version) return current.ranges;
    this.confirmed.set(track, { ranges, version });
    return ranges;
  }

  confirmedVersion(track: string): number | undefined {
    return this.confirmed.get(track)?.version;
  }

  /** The edits of `track` not yet acknowledged, oldest first. */
  pendingChanges(track: string): RangeChange[] {
    return this.queue
      .pending()
      .filter((item) => item.payload.track === track)
      .map((item) => item.payload.change);
  }

  /** What to show for a track just loaded: the server's list with this browser's unsaved edits on top. */
  withPending(track: string, ranges: readonly Range[]): Range[] {
    let shown = ranges.slice();
    for (const change of this.pendingChanges(track)) shown = applyChange(shown, change);
    return shown;
  }

  /** Every edit not yet on the server, oldest first (what "Download unsaved edits" writes). */
  pendingEdits(): SaveItem[] {
    return this.queue.pending().map((item) => item.payload);
  }

  save(item: SaveItem): void {
    this.queue.push(item);
  }

  status(): SaveStatus {
    return this.queue.status();
  }

  subscribe(listener: (event: SyncEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    this.queue.dispose();
    this.listeners.clear();
  }

  private emit(event: SyncEvent) {
    for (const listener of this.listeners) listener(event);
  }

  private async send(transport: SyncTransport, item: QueueItem<SaveItem>): Promise<void> {
    const { track, change } = item.payload;
    let base = this.confirmed.get(track);
    if (!base) {
      base = await transport.ranges(track);
      this.confirmed.set(track, base);
    }
    const made = diffRanges(base.ranges, applyChange(base.ranges, change));
    if (isEmptyChange(made)) return;
    this.confirmed.set(track, await transport.patch(track, base.version, made));
  }

  /** 409: the server's list is the new base; the same edit is sent again on top of it, and the page says so. */
  private conflict(item: QueueItem<SaveItem>, error: ApiError) {
    const { track, trackName } = item.payload;
    const current = error.body as RangesConflict;
    this.confirmed.set(track, { ranges: current.ranges, version: current.version });
    this.emit({
      type: 'rebase',
      track,
      ranges: this.withPending(track, current.ranges),
      notice: `Someone else changed "${trackName}" while you worked; your change was added to theirs.`,
      tone: 'info',
    });
  }

  /** Refused for good: a deleted track, or no right to change / a broken edit (undone on screen, with the reason). */
  private refused(item: QueueItem<SaveItem>, error: unknown) {
    const { track, trackName } = item.payload;
    if (error instanceof ApiError && error.status === 404) {
      this.emit({ type: 'gone', track, trackName });
      return;
    }
    const current = this.confirmed.get(track);
    if (current)
      this.emit({
        type: 'rebase',
        track,
        ranges: this.withPending(track, current.ranges),
        notice: null,
        tone: 'error',
      });
    const reason = error instanceof ApiError ? errorText(error) : String(error);
    this.emit({ type: 'refused', message: `"${trackName}" was not changed: ${reason}` });
  }
}

/** One sync per user and video, kept while a page shows it or it still has edits to save. */
const registry = new Map<string, { sync: AnnotationSync; users: number }>();

/** The key prefix of one user's waiting edits of one video (each tab keeps its own entry under it). */
export const syncStorageKey = (userId: number | string, videoUuid: string) => `annotator:${userId}:${videoUuid}:`;

export function acquireSync(key: string, transport: () => SyncTransport): AnnotationSync {
  const entry = registry.get(key);
  if (entry) {
    entry.users++;
    return entry.sync;
  }
  const sync = new AnnotationSync(key, transport());
  registry.set(key, { sync, users: 1 });
  return sync;
}

export function releaseSync(key: string): void {
  const entry = registry.get(key);
  if (!entry) return;
  entry.users--;
  if (entry.users > 0) return;
  const close = () => {
    if (registry.get(key) !== entry || entry.users > 0) return;
    registry.delete(key);
    entry.sync.dispose();
  };
  if (entry.sync.status().state === 'saved') {
    close();
    return;
  }
  // Edits still on their way: let them finish, then close.
  const unsubscribe = entry.sync.queue.subscribe(() => {
    if (entry.sync.status().state !== 'saved') return;
    unsubscribe();
    close();
  });
}
