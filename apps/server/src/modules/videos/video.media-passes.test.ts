/**
 * One read of a video's packets (issue 21): uploading a video that needs a playback copy, processing it (thumbnail,
 * clean-start proofs, the copy in pieces) and running a segmented analysis on it runs ffprobe on the upload twice —
 * the upload's probe and the packet index — and reads its packets once. Counted by wrapping the real binaries in
 * scripts that log every call, so the analyses' worker threads are counted too.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
import {
  createProjectWithSubject,
  type ProjectWithSubject,
  uploadVideo,
  waitForVideo,
} from '../../../test/factories-videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { resolveMediaBinaries } from '../../adapters/media/binaries.js';
import { FfmpegMedia } from '../../adapters/media/ffmpeg-media.js';

/** One logged call: the binary's name and its arguments. */
interface Call {
  name: 'ffmpeg' | 'ffprobe';
  args: string[];
}

/** Scripts named ffmpeg and ffprobe that log their arguments (one tab-separated line a call) and run the real ones. */
function countingBinaries(dir: string, real: { ffmpeg: string; ffprobe: string }, log: string) {
  const wrap = (name: 'ffmpeg' | 'ffprobe') => {
    const file = path.join(dir, name);
    const script = [
      '#!/bin/sh',
      `line=${name}`,
      'for arg in "$@"; do line="$line$(printf \'\\t\')$arg"; done',
      `printf '%s\\n' "$line" >> '${log}'`,
      `exec '${real[name]}' "$@"`,
    ].join('\n');
    writeFileSync(file, `${script}\n`);
    chmodSync(file, 0o755);
    return file;
  };
  return { ffmpeg: wrap('ffmpeg'), ffprobe: wrap('ffprobe') };
}

function calls(log: string): Call[] {
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [name, ...args] = line.split('\t');
      return { name: name as Call['name'], args };
    });
}

const inputOf = (call: Call) => call.args[call.args.indexOf('-i') + 1] ?? '';
/** The app's own MP4s (the copy's pieces and the joined copy), whose frames are counted after encoding. */
const isOwnMp4 = (call: Call) => /(?:piece-\d+|playback)\.mp4$/.test(inputOf(call));
const readsPackets = (call: Call) =>
  call.name === 'ffprobe' && call.args.some((arg) => arg.includes('packet=') || arg === '-count_packets');

describe('processing one uploaded video', () => {
  const real = resolveMediaBinaries(process.env.TMPDIR ?? os.tmpdir());
  const dir = mkdtempSync(path.join(os.tmpdir(), 'media-passes-'));
  const log = path.join(dir, 'calls.log');
  // 4 s of H.264 High 4:4:4 (browsers need a copy) with a keyframe every second: two copy pieces, four segments.
  const video = path.join(dir, 'moving-444.mp4');
  let t: TestApp;
  let owner: TestUser;
  let project: ProjectWithSubject;

  beforeAll(async () => {
    execFileSync(real.ffmpeg, [
      ...['-hide_banner', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=30:duration=4'],
      ...['-c:v', 'libx264', '-pix_fmt', 'yuv444p', '-g', '30', '-keyint_min', '30', '-sc_threshold', '0', video],
    ]);
    t = await createTestApp({
      workers: true,
      config: { analysisWorkers: 2, analysisSegmentSeconds: 1, playbackPieceSeconds: 2 },
    });
    t.ctx.media = new FfmpegMedia(countingBinaries(dir, real, log));
    writeFileSync(log, '');
    owner = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs ffprobe on it twice (probe, packet index) and reads its packets once, through copy and run', {
    timeout: 300_000,
  }, async () => {
    const uploaded = await uploadVideo(t.app, owner, project.videosUrl, video);
    expect(uploaded.statusCode).toBe(201);
    const videoUrl = `${project.videosUrl}${uploaded.json().video_uuid}/`;
    const processed = await waitForVideo(
      t.app,
      owner,
      videoUrl,
      (v) => v.status === 'failed' || (v.status === 'ready' && v.playback_copy?.state !== 'making'),
      240_000,
    );
    expect(processed).toMatchObject({ status: 'ready', playback_copy: { state: 'ready' } });

    const created = await t.app.inject({
      method: 'POST',
      url: `${videoUrl}analysis/`,
      headers: owner.headers,
      payload: { kind: 'movement_detection', parameters: { threshold: 8 } },
    });
    expect(created.statusCode).toBe(201);
    const runUrl = `${videoUrl}analysis/${created.json().analysis_uuid}/`;
    let status = 'queued';
    for (const deadline = Date.now() + 200_000; ['queued', 'running'].includes(status) && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (await t.app.inject({ method: 'GET', url: runUrl, headers: owner.headers })).json().status;
    }
    expect(status).toBe('succeeded');

    const all = calls(log);
    const ofUpload = all.filter((call) => !isOwnMp4(call));
    const probes = ofUpload.filter((call) => call.name === 'ffprobe');
    expect(probes.map((call) => (readsPackets(call) ? 'packet index' : 'probe'))).toEqual(['probe', 'packet index']);
    expect(ofUpload.filter(readsPackets)).toHaveLength(1);
    // The rest of ffprobe's work only counts the frames of the copy's pieces and of the joined copy.
    expect(all.filter((call) => call.name === 'ffprobe' && isOwnMp4(call)).every(readsPackets)).toBe(true);
    // What was counted is what ran: the thumbnail, the proofs, the pieces and the run's segments (in worker threads).
    const ffmpeg = ofUpload.filter((call) => call.name === 'ffmpeg');
    const output = (call: Call) => call.args.at(-1) ?? '';
    expect(ffmpeg.some((call) => output(call).endsWith('thumbnail.jpg'))).toBe(true);
    expect(ffmpeg.some((call) => call.args.includes('framemd5'))).toBe(true);
    expect(ffmpeg.filter((call) => call.args.includes('libx264')).length).toBeGreaterThanOrEqual(2);
    expect(ffmpeg.filter((call) => call.args.includes('rawvideo')).length).toBeGreaterThanOrEqual(2);
  });
});
