import type { InjectOptions } from 'fastify';
import { poseSets, videos } from '../src/db/schema.js';
import { poseSetKeys } from '../src/lib/storage-keys.js';
import { encodeBlocks } from '../src/modules/pose/pose-file.js';
import type { Endpoint, Fixture } from './access-matrix.types.js';
import { multipartFile } from './factories.js';

const FRAMES = 30;
const poseUrl = (f: Fixture) => `/api/projects/${f.projectUuid}/subjects/${f.subjectUuid}/videos/${f.videoUuid}/pose/`;
const json = (method: InjectOptions['method'], url: string): InjectOptions => ({ method, url });

/** A 1-second video row with one pose set of one body part (its file in storage). */
const withPoseSet: Endpoint['prepare'] = async (t, fixture, owner) => {
  const [video] = await t.ctx.db
    .insert(videos)
    .values({
      projectUuid: fixture.projectUuid,
      subjectUuid: fixture.subjectUuid,
      name: 'Matrix video',
      originalFilename: 'matrix.mp4',
      status: 'ready',
      durationS: 1,
      fps: FRAMES,
      frameCount: FRAMES,
    })
    .returning();
  const set = { projectUuid: fixture.projectUuid, videoUuid: video!.videoUuid, poseUuid: crypto.randomUUID() };
  const keys = poseSetKeys(set);
  const values = Array.from({ length: 3 }, (_, c) => Float32Array.from({ length: FRAMES }, (_, f) => f + c));
  await t.ctx.storage.write(
    keys.points,
    Buffer.concat([...encodeBlocks({ frameCount: FRAMES, keypointCount: 1, values })]),
  );
  await t.ctx.db.insert(poseSets).values({
    ...set,
    name: 'Matrix pose',
    format: 'dlc_csv',
    individuals: ['single'],
    bodyparts: ['nose'],
    keypoints: [[0, 0]],
    edges: [],
    frameCount: FRAMES,
    hasLikelihood: true,
    source: {},
    storageKey: keys.points,
    createdById: owner.id,
  });
  fixture.videoUuid = video!.videoUuid;
  fixture.poseUuid = set.poseUuid;
};

const dlcCsv = [
  'scorer,s,s,s',
  'bodyparts,nose,nose,nose',
  'coords,x,y,likelihood',
  ...Array.from({ length: FRAMES }, (_, f) => `${f},${f},${f + 1},0.9`),
].join('\n');

/** Pose endpoints of the access matrix: viewers read and export, members and above import and delete. */
export const accessMatrixPoseEndpoints: Endpoint[] = [
  {
    name: 'POST pose',
    minimum: 'member',
    work: 'process',
    prepare: withPoseSet,
    request: (f) => ({ method: 'POST', url: poseUrl(f), ...multipartFile('file', 'pose.csv', Buffer.from(dlcCsv)) }),
  },
  { name: 'GET pose', minimum: 'viewer', prepare: withPoseSet, request: (f) => json('GET', poseUrl(f)) },
  {
    name: 'GET pose frames',
    minimum: 'viewer',
    prepare: withPoseSet,
    request: (f) => json('GET', `${poseUrl(f)}${f.poseUuid}/frames/?start=0&count=10`),
  },
  {
    name: 'GET pose export',
    minimum: 'viewer',
    prepare: withPoseSet,
    request: (f) => json('GET', `${poseUrl(f)}${f.poseUuid}/export/?format=tidy`),
  },
  {
    name: 'DELETE pose',
    minimum: 'member',
    prepare: withPoseSet,
    request: (f) => json('DELETE', `${poseUrl(f)}${f.poseUuid}/`),
  },
];
