import type { PoseFrame } from './api';

/** Frames fetched a request: about 8 s at 30 fps, one read of the server's 1,024-frame blocks. */
export const POSE_WINDOW = 256;
/** Windows kept in memory; the farthest from the playhead go first. */
export const POSE_WINDOWS_KEPT = 8;
/** A window that failed is asked for again only after this long (the playhead asks on every frame). */
export const POSE_RETRY_MS = 5000;

/** Loads `count` frames from `start` (one request). */
export type PoseWindowLoader = (start: number, count: number) => Promise<PoseFrame[]>;

/**
 * A pose set's frames for the player, cached by fixed windows of frames: `ensure(frame)` loads the window under the
 * playhead and the one after it (each once, never a request per frame), so playback finds the next frames already
 * there. A small external store: `subscribe` tells when a window arrives.
 */
export class PoseWindowCache {
  private readonly windows = new Map<number, (PoseFrame | undefined)[]>();
  private readonly loading = new Set<number>();
  private readonly failedAt = new Map<number, number>();
  private readonly listeners = new Set<() => void>();
  private lastError: unknown = null;

  constructor(
    private readonly load: PoseWindowLoader,
    readonly frameCount: number,
    readonly windowSize = POSE_WINDOW,
    private readonly kept = POSE_WINDOWS_KEPT,
    private readonly now: () => number = Date.now,
  ) {}

  windowOf(frame: number): number {
    return Math.floor(frame / this.windowSize);
  }

  /** The frame's points when its window has arrived, else undefined. Stable per frame (a store snapshot). */
  frame(frame: number): PoseFrame | undefined {
    return this.windows.get(this.windowOf(frame))?.[frame - this.windowOf(frame) * this.windowSize];
  }

  /** The last failure, until a window arrives again. */
  get error(): unknown {
    return this.lastError;
  }

  /** Loads the window holding `frame` and the next one, unless they are here or on their way. */
  ensure(frame: number): void {
    const current = this.windowOf(Math.max(0, frame));
    for (const index of [current, current + 1]) this.request(index, current);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private request(index: number, current: number) {
    const start = index * this.windowSize;
    if (start >= this.frameCount || this.windows.has(index) || this.loading.has(index)) return;
    const failed = this.failedAt.get(index);
    if (failed !== undefined && this.now() - failed < POSE_RETRY_MS) return;
    this.loading.add(index);
    const count = Math.min(this.windowSize, this.frameCount - start);
    this.load(start, count).then(
      (frames) => {
        const slots: (PoseFrame | undefined)[] = new Array(count);
        for (const item of frames) {
          const at = item.frame - start;
          if (at >= 0 && at < count) slots[at] = item;
        }
        this.loading.delete(index);
        this.failedAt.delete(index);
        this.lastError = null;
        this.windows.set(index, slots);
        this.evict(current);
        this.emit();
      },
      (error: unknown) => {
        this.loading.delete(index);
        this.failedAt.set(index, this.now());
        this.lastError = error;
        this.emit();
      },
    );
  }

  /** Keeps at most `kept` windows, dropping those farthest from the window that asked. */
  private evict(current: number) {
    if (this.windows.size <= this.kept) return;
    const byDistance = [...this.windows.keys()].sort((a, b) => Math.abs(b - current) - Math.abs(a - current));
    for (const index of byDistance.slice(0, this.windows.size - this.kept)) this.windows.delete(index);
  }

  private emit() {
    for (const listener of this.listeners) listener();
  }
}
