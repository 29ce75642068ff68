/**
 * Issue 19, point 1: an upload that makes ffmpeg read something else — an HLS playlist or a concat script named
 * `.mp4` whose entries are another project's stored original (absolute or relative path, file: or http: URL), or
 * an image instead of a video — is refused with 400, stores nothing, and no process opens anything outside it.
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
import {
  createProjectWithSubject,
  type ProjectWithSubject,
  uploadVideo,
  waitForVideo,
} from '../../../test/factories-videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { videos } from '../../db/schema.js';
import { processVideoJob } from './video.jobs.js';

const REFUSED = /not a video in a container we accept/;

/** An HLS playlist whose one segment is `segment`: 200 bytes that ffmpeg, left to itself, follows. */
const playlist = (segment: string) =>
  `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:10.0,\n${segment}\n#EXT-X-ENDLIST\n`;

describe('hostile uploads: ffmpeg reads only the upload, as a video container', () => {
  let t: TestApp;
  let victim: TestUser;
  let attacker: TestUser;
  let victimProject: ProjectWithSubject;
  let attackerProject: ProjectWithSubject;
  /** The victim's stored original (web-optimised MP4: its moov first, which is what the hole needed). */
  let storedOriginal: string;
  let originalKey: string;
  let work: string;
  let http: Server;
  let httpRequests = 0;

  beforeAll(async () => {
    t = await createTestApp({ listen: true, workers: true });
    victim = await createUser(t.ctx);
    attacker = await createUser(t.ctx);
    victimProject = await createProjectWithSubject(t.ctx, victim);
    attackerProject = await createProjectWithSubject(t.ctx, attacker);
    work = path.join(t.dataDir, 'attacker-work');
    mkdirSync(work, { recursive: true });
    const faststart = path.join(work, 'faststart.mp4');
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=10:duration=3'],
      ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', faststart],
    ]);
    const uploaded = await uploadVideo(t.app, victim, victimProject.videosUrl, faststart);
    expect(uploaded.statusCode).toBe(201);
    const video = await waitForVideo(t.app, victim, `${victimProject.videosUrl}${uploaded.json().video_uuid}/`);
    expect(video.status).toBe('ready');
    const [row] = await t.ctx.db.select().from(videos).where(eq(videos.videoUuid, uploaded.json().video_uuid));
    originalKey = row!.originalKey!;
    storedOriginal = path.join(t.dataDir, 'files', originalKey);
    expect(existsSync(storedOriginal)).toBe(true);

    http = createServer((_, response) => {
      httpRequests++;
      response.end();
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  }, 120_000);
  afterAll(async () => {
    await new Promise((resolve) => http?.close(resolve));
    await t?.close();
  });

  /** Nothing of the attacker's upload is kept: no row, no stored file, no temporary file. */
  async function expectNothingKept() {
    const rows = await t.ctx.db.select().from(videos).where(eq(videos.subjectUuid, attackerProject.subjectUuid));
    expect(rows).toEqual([]);
    expect(existsSync(path.join(t.dataDir, 'files', 'projects', attackerProject.projectUuid))).toBe(false);
    for (const dir of ['uploads', 'tus']) {
      const tmp = path.join(t.dataDir, 'tmp', dir);
      expect(existsSync(tmp) ? readdirSync(tmp).filter((name) => !name.endsWith('.json')) : []).toEqual([]);
    }
  }

  async function uploadText(name: string, text: string) {
    const file = path.join(work, name);
    writeFileSync(file, text);
    return uploadVideo(t.app, attacker, attackerProject.videosUrl, file, { filename: 'open-field.mp4' });
  }

  it('refuses an HLS playlist whose segment is another project’s original by absolute path', async () => {
    const answer = await uploadText('absolute.mp4', playlist(storedOriginal));
    expect(answer.statusCode).toBe(400);
    expect(answer.json().errors.file[0]).toMatch(REFUSED);
    expect(answer.json().errors.file[0]).toContain('"hls"');
    await expectNothingKept();
  });

  it('refuses the playlist with a relative path, a file: URL and an http: URL (which is never requested)', async () => {
    // Multipart uploads wait in DATA_DIR/tmp/uploads, tus ones in DATA_DIR/tmp/tus: both two levels under DATA_DIR.
    const relative = `../../files/${originalKey}`;
    for (const [name, segment] of [
      ['relative.mp4', relative],
      ['file-url.mp4', `file:${storedOriginal}`],
      ['http-url.mp4', `http://127.0.0.1:${(http.address() as AddressInfo).port}/stolen.mp4`],
    ] as const) {
      const answer = await uploadText(name, playlist(segment));
      expect(answer.statusCode, name).toBe(400);
      expect(answer.json().errors.file[0]).toMatch(REFUSED);
    }
    expect(httpRequests).toBe(0);
    await expectNothingKept();
  });

  it('refuses a concat script and an image renamed .mp4', async () => {
    const concat = await uploadText('concat.mp4', `ffconcat version 1.0\nfile '${storedOriginal}'\n`);
    expect(concat.statusCode).toBe(400);
    expect(concat.json().errors.file[0]).toMatch(REFUSED);

    const image = path.join(work, 'frame.jpg');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=64x48', '-frames:v', '1', image]);
    const jpeg = await uploadVideo(t.app, attacker, attackerProject.videosUrl, image, { filename: 'cage.mp4' });
    expect(jpeg.statusCode).toBe(400);
    expect(jpeg.json().errors.file[0]).toMatch(REFUSED);
    await expectNothingKept();
  });

  it('refuses an image sequence named by a pattern (image2): the upload’s own name never reaches ffmpeg', async () => {
    // Frames the pattern would match, next to where uploads wait, and a JPEG sent under the pattern's name.
    const uploadsDir = path.join(t.dataDir, 'tmp', 'uploads');
    mkdirSync(uploadsDir, { recursive: true });
    const frame = path.join(work, 'frame.jpg');
    if (!existsSync(frame))
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=64x48', '-frames:v', '1', frame]);
    const decoys = [1, 2, 3].map((n) => path.join(uploadsDir, `img${String(n).padStart(3, '0')}.jpg`));
    for (const decoy of decoys) writeFileSync(decoy, readFileSync(frame));
    try {
      // An image's own extension is refused before anything reads it (415); under a video's, the probe refuses it.
      const asImage = await uploadVideo(t.app, attacker, attackerProject.videosUrl, frame, { filename: 'img%03d.jpg' });
      expect(asImage.statusCode).toBe(415);
      for (const filename of ['img%03d.mp4', 'img*.avi', '%d.mkv']) {
        const answer = await uploadVideo(t.app, attacker, attackerProject.videosUrl, frame, { filename });
        expect(answer.statusCode, filename).toBe(400);
        expect(answer.json().errors.file[0]).toMatch(REFUSED);
      }
    } finally {
      for (const decoy of decoys) rmSync(decoy, { force: true });
    }
    await expectNothingKept();
  });

  it('refuses the playlist through the resumable (tus) path too', async () => {
    const body = Buffer.from(playlist(storedOriginal));
    const meta = { project_uuid: attackerProject.projectUuid, subject_uuid: attackerProject.subjectUuid };
    const metadata = Object.entries({ ...meta, filename: 'night.mp4' })
      .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
      .join(',');
    const tus = { ...attacker.headers, 'tus-resumable': '1.0.0' };
    const created = await fetch(`${t.url}/api/uploads/`, {
      method: 'POST',
      headers: { ...tus, 'upload-length': String(body.length), 'upload-metadata': metadata },
    });
    expect(created.status).toBe(201);
    const done = await fetch(created.headers.get('location')!, {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body,
    });
    expect(done.status).toBe(400);
    expect(((await done.json()) as { errors: { file: string[] } }).errors.file[0]).toMatch(REFUSED);
    await expectNothingKept();
  });

  it('no process opens a file the playlist names (a FIFO there would see a reader)', async () => {
    const fifo = path.join(work, 'watched.mp4');
    execFileSync('mkfifo', [fifo]);
    let opened = false;
    // A FIFO opened for writing without blocking succeeds only while something has it open for reading.
    const watch = setInterval(() => {
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
        opened = true;
      } catch {
        // ENXIO: no reader.
      }
    }, 5);
    try {
      const answer = await uploadText('fifo.mp4', playlist(fifo));
      expect(answer.statusCode).toBe(400);
    } finally {
      clearInterval(watch);
    }
    expect(opened).toBe(false);
    await expectNothingKept();
  });

  it('never opens a stored file whose recorded container is not an allowed one (a row from before the list)', async () => {
    const [row] = await t.ctx.db.select().from(videos).where(eq(videos.originalKey, originalKey));
    await t.ctx.db.update(videos).set({ container: 'hls' }).where(eq(videos.videoUuid, row!.videoUuid));
    await t.ctx.jobs.send(processVideoJob, { videoUuid: row!.videoUuid });
    const failed = await waitForVideo(
      t.app,
      victim,
      `${victimProject.videosUrl}${row!.videoUuid}/`,
      (video) => video.status === 'failed',
    );
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringMatching(REFUSED) });
    // Nor does a preview or a run decode it: a clear 400 instead.
    const analysis = `${victimProject.videosUrl}${row!.videoUuid}/analysis/`;
    for (const [url, payload] of [
      [`${analysis}create-preview/`, {}],
      [analysis, { kind: 'movement_detection', parameters: {} }],
    ] as const) {
      const answer = await t.app.inject({ method: 'POST', url, headers: victim.headers, payload });
      expect(answer.statusCode, url).toBe(400);
      expect(answer.json().errors).toMatch(REFUSED);
    }
  });
});
