import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { videos } from '../src/db/schema.js';
import { videoKeys } from '../src/lib/storage-keys.js';
import type { Endpoint, Fixture } from './access-matrix.types.js';
import { videoMultipart } from './factories-videos.js';
import { videoFixtures } from './fixtures/videos.js';

const videosUrl = (f: Fixture) => `/api/projects/${f.projectUuid}/subjects/${f.subjectUuid}/videos/`;
const videoUrl = (f: Fixture) => `${videosUrl(f)}${f.videoUuid}/`;

const json = (method: InjectOptions['method'], url: string, payload?: object): InjectOptions => ({
  method,
  url,
  ...(payload ? { payload } : {}),
});

/** A ready video row with a small stored "original" (enough to stream; no ffmpeg needed). */
const withVideo: Endpoint['prepare'] = async (t, fixture) => {
  const [row] = await t.ctx.db
    .insert(videos)
    .values({
      projectUuid: fixture.projectUuid,
      subjectUuid: fixture.subjectUuid,
      name: 'Matrix video',
      originalFilename: 'matrix.mp4',
      status: 'ready',
    })
    .returning();
  const key = videoKeys(row!, '.mp4').original;
  await t.ctx.storage.write(key, Buffer.alloc(2048, 7));
  await t.ctx.db.update(videos).set({ originalKey: key, sizeBytes: 2048 }).where(eq(videos.videoUuid, row!.videoUuid));
  fixture.videoUuid = row!.videoUuid;
};

/** Video endpoints of the access matrix. */
export const accessMatrixVideoEndpoints: Endpoint[] = [
  { name: 'GET videos', minimum: 'viewer', request: (f) => json('GET', videosUrl(f)) },
  {
    name: 'GET project videos',
    minimum: 'viewer',
    prepare: withVideo,
    request: (f) => json('GET', `/api/projects/${f.projectUuid}/videos/`),
  },
  {
    name: 'POST videos (upload)',
    minimum: 'member',
    work: 'process',
    request: (f) => {
      const body = videoMultipart(readFileSync(videoFixtures().h264Mp4), 'clip.mp4');
      return { method: 'POST', url: videosUrl(f), ...body };
    },
  },
  {
    name: 'POST videos/batch_destroy',
    minimum: 'admin',
    prepare: withVideo,
    request: (f) => json('POST', `${videosUrl(f)}batch_destroy/`, { video_uuids: [f.videoUuid] }),
  },
  { name: 'GET video', minimum: 'viewer', prepare: withVideo, request: (f) => json('GET', videoUrl(f)) },
  {
    name: 'PUT video',
    minimum: 'member',
    prepare: withVideo,
    request: (f) => json('PUT', videoUrl(f), { name: 'Renamed' }),
  },
  {
    name: 'PATCH video',
    minimum: 'member',
    prepare: withVideo,
    request: (f) => json('PATCH', videoUrl(f), { recorded_at: '2026-01-01' }),
  },
  { name: 'DELETE video', minimum: 'member', prepare: withVideo, request: (f) => json('DELETE', videoUrl(f)) },
  {
    name: 'GET video stream',
    minimum: 'viewer',
    prepare: withVideo,
    request: (f) => ({ method: 'GET', url: `${videoUrl(f)}stream/`, headers: { range: 'bytes=0-99' } }),
  },
  {
    name: 'HEAD video stream',
    minimum: 'viewer',
    prepare: withVideo,
    request: (f) => ({ method: 'HEAD', url: `${videoUrl(f)}stream/` }),
  },
];
