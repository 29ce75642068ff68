import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import type { VideoPlace } from './analysis';
import { assetsDir } from './env';
import type { TestUser } from './fixtures';

/**
 * A video whose every frame shows its own number: 10 vertical stripes of 32 px over the 320 px width, stripe k white
 * when bit k of the frame number is set. Reading the stripes of the picture on screen tells which frame the browser
 * shows — the check behind "a paused clip shows exactly the event's frame".
 */
export const CODED = { width: 320, height: 240, fps: 30, seconds: 30, frames: 900, stripe: 32, bits: 10 } as const;

export function codedVideoPath(): string {
  const dir = assetsDir();
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'frame-coded-30s.mp4');
  if (existsSync(file)) return file;
  const { width, height, fps, seconds, stripe } = CODED;
  const partial = `${file}.${process.pid}.partial.mp4`;
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-v', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `color=c=black:s=${width}x${height}:r=${fps}:d=${seconds}`],
    ...['-vf', `format=yuv420p,geq=lum='255*mod(floor(N/pow(2,floor(X/${stripe}))),2)':cb=128:cr=128`],
    // A keyframe a second, as a playable copy has: seeks decode at most a second of video.
    ...['-c:v', 'libx264', '-preset', 'fast', '-crf', '12', '-g', String(fps), '-pix_fmt', 'yuv420p'],
    ...['-movflags', '+faststart', '-f', 'mp4', partial],
  ]);
  renameSync(partial, file);
  return file;
}

/** The frame number the page's video element shows now, read from its stripes. */
export async function shownFrame(page: Page): Promise<number> {
  return page.getByTestId('video-element').evaluate((video: HTMLVideoElement, coded) => {
    const canvas = document.createElement('canvas');
    canvas.width = coded.width;
    canvas.height = coded.height;
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    context.drawImage(video, 0, 0, coded.width, coded.height);
    let frame = 0;
    for (let bit = 0; bit < coded.bits; bit++) {
      const [r] = context.getImageData(bit * coded.stripe + coded.stripe / 2, coded.height / 2, 1, 1).data;
      if ((r ?? 0) > 128) frame |= 1 << bit;
    }
    return frame;
  }, CODED);
}

const auth = (user: TestUser) => ({ Authorization: `Bearer ${user.access}` });

/**
 * A finished run on the video with an event at each of `frames`: an imported series (one value per frame) that is
 * 100 on those frames and 0 elsewhere, with an absolute threshold, so event detection finds exactly them.
 */
export async function importRunWithEvents(
  request: APIRequestContext,
  user: TestUser,
  place: VideoPlace,
  frames: readonly number[],
  totalFrames: number,
): Promise<{ analysisUuid: string }> {
  const spikes = new Set(frames);
  const csv = `value\n${Array.from({ length: totalFrames }, (_, i) => (spikes.has(i) ? 100 : 0)).join('\n')}\n`;
  const response = await request.post(
    `/api/projects/${place.projectUuid}/subjects/${place.subjectUuid}/videos/${place.videoUuid}/analysis/import_timeseries/`,
    {
      headers: auth(user),
      multipart: {
        timeseries: { name: 'series.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) },
        parameters: JSON.stringify({ event_threshold: 50, refractory_s: 0.2 }),
      },
    },
  );
  expect(response.status(), await response.text()).toBe(201);
  const run = (await response.json()) as { analysis_uuid: string; status: string; event_count: number };
  expect(run.status).toBe('succeeded');
  expect(run.event_count).toBe(frames.length);
  return { analysisUuid: run.analysis_uuid };
}

export type ApiEvent = {
  id: number;
  time: number;
  original_time: number | null;
  label: string | null;
  flagged: boolean;
  discarded: boolean;
  reviewed_by: { id: number; display_name: string } | null;
};

/** The run's events as the server has them now. */
export async function serverEvents(
  request: APIRequestContext,
  user: TestUser,
  place: VideoPlace,
  analysisUuid: string,
): Promise<{ version: number; events: ApiEvent[] }> {
  const response = await request.get(
    `/api/projects/${place.projectUuid}/subjects/${place.subjectUuid}/videos/${place.videoUuid}/analysis/retrieve-events/?analysis_uuid=${analysisUuid}`,
    { headers: auth(user) },
  );
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as { version: number; events: ApiEvent[] };
}

export function quickScoreUrl(place: VideoPlace, analysisUuid: string): string {
  return `/projects/${place.projectUuid}/quick-score?subject=${place.subjectUuid}&video=${place.videoUuid}&run=${analysisUuid}`;
}
