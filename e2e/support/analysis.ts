import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect } from '@playwright/test';
import { assetsDir } from './env';
import type { TestUser } from './fixtures';

/**
 * A still, textured 640×480 scene at 30 fps where a dark square jumps at 1.0, 2.0 and 3.5 s and a second one
 * slides all the time (the recipe of the server's analysis fixtures). Generated once per machine. With `plays`
 * above 1 the clip is repeated that many times by stream copy: a long video in no encoding time.
 */
export function longSceneVideoPath(seconds = 40, plays = 1): string {
  const dir = assetsDir();
  mkdirSync(dir, { recursive: true });
  if (plays > 1) {
    const looped = path.join(dir, `scene-640x480-${seconds}s-x${plays}.mp4`);
    if (existsSync(looped)) return looped;
    const clip = longSceneVideoPath(seconds);
    const partial = `${looped}.${process.pid}.partial.mp4`;
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-v', 'error', '-y', '-stream_loop', String(plays - 1), '-i', clip],
      ...['-c', 'copy', '-f', 'mp4', partial],
    ]);
    renameSync(partial, looped);
    return looped;
  }
  const file = path.join(dir, `scene-640x480-${seconds}s.mp4`);
  if (existsSync(file)) return file;
  const fps = 30;
  const frames = seconds * fps;
  const leftX = 'if(lt(t,0.999),40,if(lt(t,1.999),120,if(lt(t,3.499),40,120)))';
  const slideX = '230+60*abs(sin(t*2))';
  // Written under a unique name, then renamed: two runners may generate at once.
  const partial = `${file}.${process.pid}.partial.mp4`;
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-v', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `nullsrc=s=640x480:r=${fps}:d=${seconds}`],
    ...['-f', 'lavfi', '-i', `color=c=0x101010:s=30x30:r=${fps}:d=${seconds}`],
    '-filter_complex',
    [
      // The texture is computed once (geq is slow) and its frame repeated.
      `[0]trim=end_frame=1,geq=lum='128+50*sin(X/6)*cos(Y/9)+30*sin((X+Y)/23)':cb=128:cr=128,format=yuv420p,loop=loop=${frames - 1}:size=1:start=0,setpts=N/${fps}/TB[bg]`,
      `[bg][1]overlay=x='${leftX}':y=100:eval=frame[one]`,
      `[one][1]overlay=x='${slideX}':y=60:eval=frame:shortest=1`,
    ].join(';'),
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '23', '-pix_fmt', 'yuv420p', '-f', 'mp4', partial],
  ]);
  renameSync(partial, file);
  return file;
}

export interface VideoPlace {
  projectUuid: string;
  subjectUuid: string;
  videoUuid: string;
}

export type RunAnswer = {
  analysis_uuid: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'revoked';
  progress: number;
  event_count: number | null;
  event_counts: { detected: number; kept: number } | null;
  error: string | null;
};

const auth = (user: TestUser) => ({ Authorization: `Bearer ${user.access}` });
const analysisBase = (place: VideoPlace) =>
  `/api/projects/${place.projectUuid}/subjects/${place.subjectUuid}/videos/${place.videoUuid}/analysis/`;

/** Uploads a video over the API (multipart) and waits until it is ready to analyse. */
export async function uploadReadyVideo(
  request: APIRequestContext,
  user: TestUser,
  projectUuid: string,
  subjectUuid: string,
  file: string,
  name: string,
): Promise<VideoPlace> {
  const response = await request.post(`/api/projects/${projectUuid}/subjects/${subjectUuid}/videos/`, {
    headers: auth(user),
    multipart: { name, file: { name: path.basename(file), mimeType: 'video/mp4', buffer: readFileSync(file) } },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { video_uuid: videoUuid } = (await response.json()) as { video_uuid: string };
  await expect
    .poll(
      async () => {
        const video = await request.get(`/api/projects/${projectUuid}/subjects/${subjectUuid}/videos/${videoUuid}/`, {
          headers: auth(user),
        });
        return ((await video.json()) as { status: string }).status;
      },
      { timeout: 60_000 },
    )
    .toBe('ready');
  return { projectUuid, subjectUuid, videoUuid };
}

export async function startRun(
  request: APIRequestContext,
  user: TestUser,
  place: VideoPlace,
  body: { kind: string; parameters?: Record<string, unknown>; source_analysis_uuid?: string },
): Promise<RunAnswer> {
  const response = await request.post(analysisBase(place), { headers: auth(user), data: body });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as RunAnswer;
}

export async function getRun(
  request: APIRequestContext,
  user: TestUser,
  place: VideoPlace,
  analysisUuid: string,
): Promise<RunAnswer> {
  const response = await request.get(`${analysisBase(place)}${analysisUuid}/`, { headers: auth(user) });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as RunAnswer;
}

export async function revokeRun(request: APIRequestContext, user: TestUser, place: VideoPlace, analysisUuid: string) {
  const response = await request.post(`${analysisBase(place)}${analysisUuid}/revoke/`, { headers: auth(user) });
  expect(response.ok(), await response.text()).toBe(true);
}

/** Waits until a run has finished (succeeded, failed or revoked) and answers it. */
export async function finishedRun(
  request: APIRequestContext,
  user: TestUser,
  place: VideoPlace,
  analysisUuid: string,
  timeout = 60_000,
): Promise<RunAnswer> {
  let run: RunAnswer | undefined;
  await expect
    .poll(
      async () => {
        run = await getRun(request, user, place, analysisUuid);
        return run.status === 'queued' || run.status === 'running';
      },
      { timeout },
    )
    .toBe(false);
  return run!;
}
