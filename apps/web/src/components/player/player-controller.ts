import { useMemo, useSyncExternalStore } from 'react';
import {
  clampFrame,
  type FrameRange,
  frameAt,
  frameCountOf,
  frameStart,
  frameTime,
  nearestFrame,
  usableFps,
} from './frames';
import { createTimeStore, type TimeSource } from './time-store';

export const PLAYBACK_RATES = [0.25, 0.5, 1, 1.5, 2] as const;

/** The performance measure from a clip's request (`playClip`'s `requestedAt`) to its first frame on screen. */
export const CLIP_START_MEASURE = 'player-clip-start';

/** After `seeked`, how long to wait for the frame callback before trusting `currentTime` (a frame already shown). */
const CONFIRM_FALLBACK_MS = 250;
/** A seek that never completes (no source, a broken file) gives up after this long. */
const SEEK_GIVE_UP_MS = 8000;

export interface PlayerState {
  playing: boolean;
  rate: number;
  /** Seconds: the element's once it has metadata, else the video's facts. */
  duration: number;
  /** The element on screen has a frame to show. */
  ready: boolean;
  /** Why the video cannot play (the browser's media error), or null. */
  error: string | null;
  /** The clip being played, until it has ended or another command took over. */
  clip: FrameRange | null;
  /** Which element slot is on screen; the other (when there is one) holds a preloaded clip. */
  shown: 0 | 1;
}

export interface VideoFacts {
  fps: number | null | undefined;
  frameCount?: number | null | undefined;
  duration?: number | null | undefined;
}

interface RunningClip {
  clip: FrameRange;
  /** The frame shown once the clip has ended. */
  rest: number;
  generation: number;
  /** performance.now() time of the request, measured to the clip's first frame on screen; null once measured. */
  requestedAt: number | null;
  playing: boolean;
}

interface Preload {
  start: number;
  done: Promise<number>;
  /** The standby shows the clip's first frame: a swap can play at once. */
  ready: boolean;
}

const MEDIA_ERRORS: Record<number, string> = {
  1: 'loading was aborted',
  2: 'a network error interrupted loading',
  3: 'the browser could not decode it',
  4: 'the browser cannot play this file',
};

/**
 * The one video player of the app, as an object: frame-exact seeking, playback, clips and preloading over one
 * `<video>` element (and an optional second one that holds the next clip). The VideoPlayer component attaches the
 * elements; pages drive it through these methods and read it through `usePlayerState` and `clock`.
 *
 * Frames, not seconds: a seek to frame n goes to the middle of its interval ((n + 0.5) / fps) and is confirmed with
 * `requestVideoFrameCallback`, whose `mediaTime` is the start time of the frame actually composited; `clock` then
 * holds that time, n / fps — the time the series and the events give frame n.
 */
export class PlayerController {
  readonly fps: number;
  readonly frameCount: number;
  /** The time of the frame on screen (n / fps once confirmed), published on every presented frame while playing. */
  readonly clock: TimeSource;
  private readonly time = createTimeStore(0);
  private state: PlayerState;
  private readonly listeners = new Set<() => void>();
  private readonly elements: [HTMLVideoElement | null, HTMLVideoElement | null] = [null, null];
  private readonly detachers: [(() => void) | null, (() => void) | null] = [null, null];
  /** Bumped by every command that decides what is shown; async work of an older command stands down. */
  private generation = 0;
  /** The frame a seek in flight will show, so that steps chain from it rather than from the old frame. */
  private targetFrame: number | null = null;
  private running: RunningClip | null = null;
  private preload: Preload | null = null;
  private loopHandle: { element: HTMLVideoElement; id: number; raf: boolean } | null = null;

  constructor(facts: VideoFacts) {
    this.fps = usableFps(facts.fps);
    this.frameCount = frameCountOf(facts.frameCount, facts.duration, this.fps);
    this.clock = this.time;
    this.state = {
      playing: false,
      rate: 1,
      duration: facts.duration && facts.duration > 0 ? facts.duration : this.frameCount / this.fps,
      ready: false,
      error: null,
      clip: null,
      shown: 0,
    };
  }

  // ---- store ----

  getState = (): PlayerState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private patch(partial: Partial<PlayerState>) {
    let changed = false;
    for (const key of Object.keys(partial) as (keyof PlayerState)[]) {
      if (this.state[key] !== partial[key]) changed = true;
    }
    if (!changed) return;
    this.state = { ...this.state, ...partial };
    for (const listener of this.listeners) listener();
  }

  /** The frame on screen (or the one a seek in flight is about to show). */
  currentFrame(): number {
    return this.targetFrame ?? clampFrame(frameAt(this.time.get(), this.fps), this.frameCount);
  }

  /** The element on screen. */
  get element(): HTMLVideoElement | null {
    return this.elements[this.state.shown];
  }

  private get standby(): HTMLVideoElement | null {
    return this.elements[this.state.shown === 0 ? 1 : 0];
  }

  // ---- elements ----

  /** Called by VideoPlayer with each element (slot 1 is the standby that preloads clips), and with null on unmount. */
  attach(slot: 0 | 1, element: HTMLVideoElement | null) {
    if (this.elements[slot] === element) return;
    this.detachers[slot]?.();
    this.detachers[slot] = null;
    this.elements[slot] = element;
    if (slot !== this.state.shown && this.preload) this.preload = null;
    if (!element) return;
    element.playbackRate = this.state.rate;
    const isShown = () => this.elements[this.state.shown] === element;
    const handlers: [keyof HTMLMediaElementEventMap, () => void][] = [
      [
        'play',
        () => {
          if (!isShown()) return;
          this.patch({ playing: true });
          this.startFrameLoop(element);
        },
      ],
      ['pause', () => isShown() && this.onStopped(element)],
      ['ended', () => isShown() && this.onStopped(element)],
      [
        'seeked',
        () => {
          // A seek made outside the controller (a test, devtools): follow it.
          if (isShown() && this.targetFrame === null && element.paused) this.time.set(element.currentTime);
        },
      ],
      [
        'loadedmetadata',
        () => {
          element.playbackRate = this.state.rate;
          if (isShown() && Number.isFinite(element.duration) && element.duration > 0) {
            this.patch({ duration: element.duration });
          }
        },
      ],
      ['loadeddata', () => isShown() && this.patch({ ready: true, error: null })],
      ['ratechange', () => isShown() && this.patch({ rate: element.playbackRate })],
      [
        'error',
        () => {
          if (!isShown()) return;
          const code = element.error?.code ?? 0;
          this.patch({ error: `The video could not be played: ${MEDIA_ERRORS[code] ?? 'unknown error'}.` });
        },
      ],
    ];
    for (const [name, handler] of handlers) element.addEventListener(name, handler);
    if (isShown() && element.readyState >= 2) this.patch({ ready: true });
    this.detachers[slot] = () => {
      for (const [name, handler] of handlers) element.removeEventListener(name, handler);
      if (this.loopHandle?.element === element) this.stopFrameLoop();
    };
  }

  private onStopped(element: HTMLVideoElement) {
    this.patch({ playing: false });
    this.stopFrameLoop();
    if (this.targetFrame === null && !element.seeking) this.time.set(element.currentTime);
  }

  // ---- the frame loop: one callback per composited frame while playing ----

  private startFrameLoop(element: HTMLVideoElement) {
    this.stopFrameLoop();
    if (hasFrameCallbacks(element)) {
      const onFrame = (now: number, metadata: VideoFrameCallbackMetadata) => {
        if (this.loopHandle?.element !== element) return;
        // mediaTime names the frame's start but comes in whole microseconds (Chromium): 229 / 30 s arrives as
        // 7.633333 s, a hair before the frame, which the clock's readers (frameAt) would take for frame 228.
        this.onPresented(now, frameStart(nearestFrame(metadata.mediaTime, this.fps), this.fps));
        if (!element.paused && this.loopHandle?.element === element) {
          this.loopHandle = { element, id: element.requestVideoFrameCallback(onFrame), raf: false };
        } else this.loopHandle = null;
      };
      this.loopHandle = { element, id: element.requestVideoFrameCallback(onFrame), raf: false };
      return;
    }
    // No frame callbacks (old engines): sample currentTime on every animation frame.
    const tick = (now: number) => {
      if (this.loopHandle?.element !== element) return;
      this.onPresented(now, element.currentTime);
      if (!element.paused) this.loopHandle = { element, id: requestAnimationFrame(tick), raf: true };
      else this.loopHandle = null;
    };
    this.loopHandle = { element, id: requestAnimationFrame(tick), raf: true };
  }

  private stopFrameLoop() {
    const handle = this.loopHandle;
    if (!handle) return;
    this.loopHandle = null;
    if (handle.raf) cancelAnimationFrame(handle.id);
    else handle.element.cancelVideoFrameCallback(handle.id);
  }

  private onPresented(now: number, mediaTime: number) {
    if (this.targetFrame === null) this.time.set(mediaTime);
    const run = this.running;
    if (!run?.playing || run.generation !== this.generation) return;
    const frame = nearestFrame(mediaTime, this.fps);
    if (frame < run.clip.start) return;
    if (run.requestedAt !== null) {
      measure(CLIP_START_MEASURE, run.requestedAt, now);
      run.requestedAt = null;
    }
    if (frame >= run.clip.end - 1) {
      this.running = null;
      this.element?.pause();
      void this.seekFrame(run.rest);
    }
  }

  // ---- commands ----

  /** Shows frame `frame` (clamped to the video) and resolves with the frame confirmed on screen. */
  seekFrame(frame: number): Promise<number> {
    const target = clampFrame(frame, this.frameCount);
    const generation = this.takeOver();
    this.targetFrame = target;
    // Readouts follow at once; the confirmation corrects them if the browser showed another frame.
    this.time.set(frameStart(target, this.fps));
    const element = this.element;
    if (!element) {
      this.targetFrame = null;
      return Promise.resolve(target);
    }
    return this.showFrame(element, target, generation);
  }

  /** Shows the frame under `seconds` (the frame whose interval holds it). */
  seekTime(seconds: number): Promise<number> {
    return this.seekFrame(frameAt(Math.max(0, seconds), this.fps));
  }

  /** Pauses and moves `frames` frames (negative: back). */
  step(frames: number): Promise<number> {
    const from = this.currentFrame();
    this.element?.pause();
    return this.seekFrame(from + frames);
  }

  play() {
    this.takeOver();
    const element = this.element;
    if (element) void element.play().catch(() => this.patch({ playing: false }));
  }

  pause() {
    this.takeOver();
    this.element?.pause();
  }

  togglePlay() {
    if (this.element?.paused === false) this.pause();
    else this.play();
  }

  setRate(rate: number) {
    for (const element of this.elements) if (element) element.playbackRate = rate;
    this.patch({ rate });
  }

  /**
   * Plays frames [clip.start, clip.end) and stops at the end, then shows `rest` (default: the clip's last frame).
   * A clip preloaded on the standby element starts without a seek. `requestedAt` (a performance.now() time, e.g. the
   * key press's `event.timeStamp`) starts the CLIP_START_MEASURE, which ends when the clip's first frame is shown.
   */
  async playClip(clip: FrameRange, options: { rest?: number; requestedAt?: number } = {}): Promise<void> {
    const start = clampFrame(clip.start, this.frameCount);
    const range = { start, end: Math.max(start + 1, Math.min(clip.end, this.frameCount)) };
    const generation = this.takeOver();
    const run: RunningClip = {
      clip: range,
      rest: clampFrame(options.rest ?? range.end - 1, this.frameCount),
      generation,
      requestedAt: options.requestedAt ?? null,
      playing: false,
    };
    this.running = run;
    this.patch({ clip: range });
    const preload = this.preload;
    let element = this.element;
    if (preload && preload.start === range.start && this.standby) {
      // The standby holds this clip's first frame: put it on screen, and play it at once when its seek is done
      // (before anything else the page does for the new event).
      this.preload = null;
      element?.pause();
      // On screen now, not when React next renders the player.
      if (element) Object.assign(element.style, shownStyle(false));
      if (this.standby) Object.assign(this.standby.style, shownStyle(true));
      this.patch({ shown: this.state.shown === 0 ? 1 : 0 });
      element = this.element;
      this.patch({
        ready: element !== null && element.readyState >= 2,
        duration: element?.duration || this.state.duration,
      });
      if (preload.ready && element) {
        run.playing = true;
        void element.play().catch(() => this.patch({ playing: false }));
        return;
      }
      await preload.done;
    } else {
      if (!element) return;
      element.pause();
      this.targetFrame = range.start;
      this.time.set(frameStart(range.start, this.fps));
      await this.showFrame(element, range.start, generation);
    }
    if (generation !== this.generation || !element) return;
    run.playing = true;
    void element.play().catch(() => this.patch({ playing: false }));
  }

  /** Seeks the standby element to the clip's first frame, so that `playClip(clip)` starts at once. */
  preloadClip(clip: FrameRange | null) {
    const standby = this.standby;
    if (!standby || !clip) {
      this.preload = null;
      return;
    }
    const start = clampFrame(clip.start, this.frameCount);
    if (this.preload?.start === start) return;
    standby.pause();
    const preload: Preload = { start, done: this.seekAndConfirm(standby, frameTime(start, this.fps)), ready: false };
    void preload.done.then(() => {
      preload.ready = true;
    });
    this.preload = preload;
  }

  /** A new command: older clips and seeks stand down. */
  private takeOver(): number {
    this.running = null;
    this.targetFrame = null;
    if (this.state.clip) this.patch({ clip: null });
    this.generation += 1;
    return this.generation;
  }

  private async showFrame(element: HTMLVideoElement, target: number, generation: number): Promise<number> {
    let shown = await this.seekAndConfirm(element, frameTime(target, this.fps));
    // A browser that rounds the other way shows a neighbour: nudge towards the target once.
    if (shown !== target && generation === this.generation && element.paused) {
      const nudge = shown < target ? 0.8 : 0.2;
      shown = await this.seekAndConfirm(element, Math.max(0, (target + nudge) / this.fps));
    }
    if (generation === this.generation) {
      this.targetFrame = null;
      this.time.set(frameStart(shown, this.fps));
    }
    return shown;
  }

  /** Sets currentTime and resolves with the frame composited afterwards (by its mediaTime). */
  private seekAndConfirm(element: HTMLVideoElement, time: number): Promise<number> {
    return new Promise((resolve) => {
      let settled = false;
      let fallback: ReturnType<typeof setTimeout> | undefined;
      let handle: number | undefined;
      const canConfirm = hasFrameCallbacks(element);
      const finish = (frame: number) => {
        if (settled) return;
        settled = true;
        element.removeEventListener('seeked', onSeeked);
        clearTimeout(fallback);
        clearTimeout(giveUp);
        if (handle !== undefined) element.cancelVideoFrameCallback(handle);
        resolve(frame);
      };
      const wanted = clampFrame(frameAt(time, this.fps), this.frameCount);
      const onFrame = (_now: number, metadata: VideoFrameCallbackMetadata) => {
        const frame = nearestFrame(metadata.mediaTime, this.fps);
        // The sought frame may be composited before `seeking` clears; another frame while seeking is an old one.
        if (frame === wanted || !element.seeking) finish(frame);
        else handle = element.requestVideoFrameCallback(onFrame);
      };
      const onSeeked = () => {
        const byTime = () => finish(clampFrame(frameAt(element.currentTime, this.fps), this.frameCount));
        // The same frame as before is not composited again, so no callback comes: trust currentTime then.
        if (canConfirm) fallback = setTimeout(byTime, CONFIRM_FALLBACK_MS);
        else byTime();
      };
      const giveUp = setTimeout(
        () => finish(clampFrame(frameAt(element.currentTime, this.fps), this.frameCount)),
        SEEK_GIVE_UP_MS,
      );
      if (canConfirm) handle = element.requestVideoFrameCallback(onFrame);
      element.addEventListener('seeked', onSeeked);
      element.currentTime = time;
    });
  }
}

/** The inline style of an element on screen or standing by (beneath, transparent, still composited). */
export function shownStyle(onScreen: boolean): { opacity: string; zIndex: string } {
  return onScreen ? { opacity: '1', zIndex: '1' } : { opacity: '0', zIndex: '0' };
}

/** requestVideoFrameCallback: Chromium, Safari, Firefox ≥ 132. */
function hasFrameCallbacks(element: HTMLVideoElement): boolean {
  return typeof element.requestVideoFrameCallback === 'function';
}

function measure(name: string, start: number, end: number) {
  if (typeof performance.measure !== 'function') return;
  try {
    performance.measure(name, { start, end });
  } catch {
    // Measuring is best effort.
  }
}

/** A player for one video; a new one when the video's facts change. */
export function usePlayer(facts: VideoFacts): PlayerController {
  const { fps, frameCount, duration } = facts;
  return useMemo(() => new PlayerController({ fps, frameCount, duration }), [fps, frameCount, duration]);
}

export function usePlayerState(player: PlayerController): PlayerState {
  return useSyncExternalStore(player.subscribe, player.getState, player.getState);
}
