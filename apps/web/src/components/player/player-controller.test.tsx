import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { frameAt } from './frames';
import { PlayerController } from './player-controller';
import { VideoPlayer } from './video-player';

const FPS = 30;

/**
 * A stand-in for a browser's <video> (jsdom plays nothing): a seek composites its frame on the next tick, then fires
 * `seeked`; playing composites one frame per 1/30 s. Frame callbacks get the composited frame's start time as
 * `mediaTime`, as Chromium gives it. The real browser is exercised by the Playwright tests.
 */
class FakeVideo extends EventTarget {
  paused = true;
  seeking = false;
  readyState = 4;
  duration = 10;
  playbackRate = 1;
  style: Record<string, string> = {};
  private time = 0;
  private shownFrame = -1;
  private callbacks = new Map<number, VideoFrameRequestCallback>();
  private nextId = 1;
  private ticker: ReturnType<typeof setInterval> | null = null;
  seeks: number[] = [];
  /** Chromium's mediaTime: whole microseconds, cut (229 / 30 s → 7.633333 s). */
  microseconds = false;

  get currentTime() {
    return this.time;
  }
  set currentTime(value: number) {
    this.time = value;
    this.seeks.push(value);
    this.seeking = true;
    this.dispatchEvent(new Event('seeking'));
    setTimeout(() => {
      this.present(Math.floor(value * FPS));
      this.seeking = false;
      this.dispatchEvent(new Event('seeked'));
    }, 1);
  }
  requestVideoFrameCallback(callback: VideoFrameRequestCallback) {
    const id = this.nextId++;
    this.callbacks.set(id, callback);
    return id;
  }
  cancelVideoFrameCallback(id: number) {
    this.callbacks.delete(id);
  }
  play() {
    this.paused = false;
    this.dispatchEvent(new Event('play'));
    this.ticker = setInterval(() => {
      this.time += 1 / FPS;
      this.present(Math.floor(this.time * FPS + 1e-6));
    }, 1000 / FPS);
    return Promise.resolve();
  }
  pause() {
    if (this.paused) return;
    this.paused = true;
    if (this.ticker) clearInterval(this.ticker);
    this.dispatchEvent(new Event('pause'));
  }
  /** Composites `frame` (a new one only), calling the frame callbacks registered before. */
  private present(frame: number) {
    if (frame === this.shownFrame) return;
    this.shownFrame = frame;
    const due = [...this.callbacks.values()];
    this.callbacks.clear();
    const mediaTime = this.microseconds ? Math.floor((frame / FPS) * 1e6) / 1e6 : frame / FPS;
    for (const callback of due) callback(performance.now(), { mediaTime } as VideoFrameCallbackMetadata);
  }
  get frame() {
    return this.shownFrame;
  }
}

function setup() {
  const player = new PlayerController({ fps: FPS, frameCount: 300, duration: 10 });
  const first = new FakeVideo();
  const second = new FakeVideo();
  player.attach(0, first as unknown as HTMLVideoElement);
  player.attach(1, second as unknown as HTMLVideoElement);
  return { player, first, second };
}

beforeEach(() => {
  // Timers only: the clip-start measure needs the real performance timeline.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('PlayerController', () => {
  it('seeks to the middle of a frame and reports the frame composited', async () => {
    const { player, first } = setup();
    const shown = player.seekFrame(45);
    // Readouts follow at once.
    expect(player.currentFrame()).toBe(45);
    await vi.advanceTimersByTimeAsync(5);
    expect(await shown).toBe(45);
    expect(first.seeks.at(-1)).toBeCloseTo(45.5 / FPS, 12);
    expect(player.clock.get()).toBeCloseTo(45 / FPS, 12);
    // Steps chain from the frame a seek is about to show.
    const stepped = player.step(2);
    expect(player.currentFrame()).toBe(47);
    await vi.advanceTimersByTimeAsync(5);
    expect(await stepped).toBe(47);
    // The video's ends hold.
    const end = player.seekFrame(10_000);
    await vi.advanceTimersByTimeAsync(5);
    expect(await end).toBe(299);
  });

  it('gives every frame played its own start time on the clock, though the browser cuts it to microseconds', async () => {
    const { player, first } = setup();
    first.microseconds = true;
    const read: [number, number][] = [];
    player.clock.subscribe(() => read.push([first.frame, frameAt(player.clock.get(), FPS)]));
    player.play();
    await vi.advanceTimersByTimeAsync(3000);
    player.pause();
    expect(read.length).toBeGreaterThan(80);
    expect(read.filter(([shown, clock]) => shown !== clock)).toEqual([]);
  });

  it('plays a clip, stops at its last frame and rests on the frame asked for', async () => {
    const { player, first } = setup();
    const seen: number[] = [];
    first.requestVideoFrameCallback(function watch(_now, metadata) {
      seen.push(Math.round(metadata.mediaTime * FPS));
      first.requestVideoFrameCallback(watch);
    });
    void player.playClip({ start: 60, end: 70 }, { rest: 65 });
    expect(player.getState().clip).toEqual({ start: 60, end: 70 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(first.paused).toBe(true);
    expect(seen[0]).toBe(60);
    expect(Math.max(...seen)).toBe(69);
    expect(first.frame).toBe(65);
    expect(player.currentFrame()).toBe(65);
    expect(player.getState()).toMatchObject({ playing: false, clip: null });
  });

  it('plays a preloaded clip on the standby element without a seek, and the elements swap', async () => {
    const { player, first, second } = setup();
    void player.playClip({ start: 30, end: 40 }, { rest: 35 });
    await vi.advanceTimersByTimeAsync(1000);
    player.preloadClip({ start: 90, end: 100 });
    await vi.advanceTimersByTimeAsync(5);
    const seeksBefore = second.seeks.length;
    performance.clearMeasures?.('player-clip-start');
    void player.playClip({ start: 90, end: 100 }, { rest: 95, requestedAt: performance.now() });
    expect(player.getState().shown).toBe(1);
    expect(player.element).toBe(second as unknown as HTMLVideoElement);
    // On screen at once, without waiting for a render.
    expect(second.style).toEqual({ opacity: '1', zIndex: '1' });
    expect(first.style).toEqual({ opacity: '0', zIndex: '0' });
    expect(second.paused).toBe(false);
    expect(second.seeks.length).toBe(seeksBefore);
    await vi.advanceTimersByTimeAsync(1000);
    expect(second.frame).toBe(95);
    expect(first.paused).toBe(true);
    expect(performance.getEntriesByName('player-clip-start')).toHaveLength(1);
  });

  it('lets a newer command take over a clip: a seek while it plays ends the clip, playback goes on from there', async () => {
    const { player, first } = setup();
    void player.playClip({ start: 60, end: 90 }, { rest: 75 });
    await vi.advanceTimersByTimeAsync(100);
    void player.seekFrame(10);
    expect(player.getState().clip).toBeNull();
    await vi.advanceTimersByTimeAsync(1000);
    // No stop at frame 89 and no rest on 75: the clip is over.
    expect(first.paused).toBe(false);
    expect(first.frame).toBeGreaterThan(30);
    expect(first.frame).toBeLessThan(60);
    player.pause();
    expect(first.paused).toBe(true);
  });
});

describe('VideoPlayer', () => {
  it('says so while the playable copy is being prepared, with its progress, and shows no broken element', () => {
    const player = new PlayerController({ fps: FPS, frameCount: 300 });
    const { rerender } = render(
      <VideoPlayer
        player={player}
        source={{
          name: 'Session 1',
          streamUrl: null,
          width: 320,
          height: 240,
          unavailable: { kind: 'preparing', progress: 0.376 },
        }}
        controls={<p>controls</p>}
      />,
    );
    expect(screen.getByTestId('player-unavailable').textContent).toContain('Preparing the playable copy… 37%');
    expect(screen.getByRole('progressbar', { name: 'Playable copy' }).getAttribute('aria-valuenow')).toBe('37');
    expect(screen.queryByTestId('video-element')).toBeNull();
    expect(screen.getByRole('region', { name: 'Player: Session 1' })).toBeTruthy();

    // Not started yet: no figure; failed: the reason, and no element either.
    rerender(
      <VideoPlayer
        player={player}
        source={{ name: 'Session 1', streamUrl: null, width: 320, height: 240, unavailable: null }}
      />,
    );
    expect(screen.getByTestId('player-unavailable').textContent).toMatch(/Preparing the playable copy…This video/);
    expect(screen.queryByRole('progressbar')).toBeNull();
    rerender(
      <VideoPlayer
        player={player}
        source={{
          name: 'Session 1',
          streamUrl: null,
          width: 320,
          height: 240,
          unavailable: { kind: 'failed', reason: 'Making the playable copy failed: out of memory' },
        }}
      />,
    );
    expect(screen.getByTestId('player-unavailable').textContent).toContain(
      'could not be made: Making the playable copy failed: out of memory',
    );
    expect(screen.queryByTestId('video-element')).toBeNull();
  });

  it('renders the shown element, a hidden standby, and the overlay over the picture', () => {
    const player = new PlayerController({ fps: FPS, frameCount: 300 });
    render(
      <VideoPlayer
        player={player}
        source={{ name: 'Session 1', streamUrl: '/stream/1', width: 320, height: 240 }}
        standby
        overlay={<svg data-testid="overlay" />}
        onKeyDown={() => {}}
      />,
    );
    expect(screen.getByTestId('video-element').getAttribute('src')).toBe('/stream/1');
    expect(screen.getByTestId('video-standby').getAttribute('aria-hidden')).toBe('true');
    expect(screen.getByTestId('overlay')).toBeTruthy();
    expect(screen.getByRole('application', { name: 'Player: Session 1' }).getAttribute('tabindex')).toBe('0');
    expect(player.element).toBe(screen.getByTestId('video-element'));
  });
});
