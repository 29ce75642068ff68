import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import h5wasm from 'h5wasm/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject, type ProjectWithSubject } from '../../../test/factories-videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { videos } from '../../db/schema.js';
import { poseSetKeys, videoStoragePrefix } from '../../lib/storage-keys.js';
import {
  dlcConfigYaml,
  dlcCsv,
  dlcH5,
  expectedPoint,
  makeTruth,
  type PoseTruth,
  sleapCsv,
  sleapH5,
} from './pose-files.test-support.js';

type PoseSet = {
  pose_uuid: string;
  name: string;
  format: string;
  individuals: string[];
  bodyparts: string[];
  keypoints: { individual: string; bodypart: string }[];
  edges: [string, string][];
  frame_count: number;
  has_likelihood: boolean;
  frame_offset: number;
};
type Frames = { frames: { frame: number; individuals: Record<string, Record<string, (number | null)[] | null>> }[] };

/** 1,500 frames: more than one 1,024-frame block of the stored file. */
const FRAMES = 1500;
const FPS = 30;
const PARTS = ['nose', 'left_ear', 'right_ear', 'tail_base'];

describe('pose API', { timeout: 180_000 }, () => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let project: ProjectWithSubject;
  let videoUuid: string;
  let poseUrl: string;
  let tmp: string;

  const single = makeTruth(FRAMES, { single: PARTS });
  const pair = makeTruth(FRAMES, { mouse1: PARTS, mouse2: PARTS });
  const withUnique = makeTruth(FRAMES, { mouse1: PARTS, mouse2: PARTS, single: ['object_a', 'object_b'] });

  async function request(user: TestUser, method: string, url: string, body?: FormData) {
    const response = await fetch(`${t.url}${url}`, { method, headers: user.headers, body });
    const text = await response.text();
    return { status: response.status, text, json: () => JSON.parse(text), headers: response.headers };
  }

  function form(file: Buffer, fileName: string, fields: Record<string, string> = {}, config?: Buffer) {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    body.append('file', new Blob([file]), fileName);
    if (config) body.append('config', new Blob([config]), 'config.yaml');
    return body;
  }

  async function importFile(file: Buffer, fileName: string, fields: Record<string, string> = {}, user = member) {
    const response = await request(user, 'POST', poseUrl, form(file, fileName, fields));
    expect(response.status, response.text).toBe(201);
    return response.json() as PoseSet;
  }

  async function framesOf(set: PoseSet, start: number, count: number, url = poseUrl) {
    const response = await request(viewer, 'GET', `${url}${set.pose_uuid}/frames/?start=${start}&count=${count}`);
    expect(response.status, response.text).toBe(200);
    return response.json() as Frames;
  }

  /** Every point of the frames against the truth (Float32 of what was written, null where nothing was). */
  async function expectFrames(
    set: PoseSet,
    truth: PoseTruth,
    frames: number[],
    likelihood = true,
    offset = 0,
    url = poseUrl,
  ) {
    for (const frame of frames) {
      const [answer] = (await framesOf(set, frame, 1, url)).frames;
      expect(answer!.frame).toBe(frame);
      const expected: Record<string, Record<string, unknown>> = {};
      for (const individual of truth.individuals) {
        expected[individual] = Object.fromEntries(
          truth.parts[individual]!.map((part) => [
            part,
            frame - offset >= 0 && frame - offset < truth.frames
              ? expectedPoint(truth, frame - offset, individual, part, likelihood)
              : null,
          ]),
        );
      }
      expect(answer!.individuals).toEqual(expected);
    }
  }

  /** The pose folders on disk under a video's storage prefix (local storage: DATA_DIR/files). */
  function poseFolders(video: string): string[] {
    const dir = path.join(
      t.dataDir,
      'files',
      videoStoragePrefix({ projectUuid: project.projectUuid, videoUuid: video }),
      'pose',
    );
    return existsSync(dir) ? readdirSync(dir).sort() : [];
  }

  async function listSets(url = poseUrl) {
    const response = await request(viewer, 'GET', url);
    expect(response.status).toBe(200);
    return (response.json() as { results: PoseSet[] }).results;
  }

  async function createVideo(frameCount: number) {
    const uuid = randomUUID();
    await t.ctx.db.insert(videos).values({
      videoUuid: uuid,
      projectUuid: project.projectUuid,
      subjectUuid: project.subjectUuid,
      name: 'Open field M3',
      originalFilename: 'openfield.mp4',
      status: 'ready',
      fps: FPS,
      frameCount,
      durationS: frameCount / FPS,
      width: 640,
      height: 480,
    });
    return uuid;
  }

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    tmp = t.dataDir;
    owner = await createUser(t.ctx);
    member = await createUser(t.ctx);
    viewer = await createUser(t.ctx);
    outsider = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, member.id, 'member');
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    videoUuid = await createVideo(FRAMES);
    poseUrl = `${project.videosUrl}${videoUuid}/pose/`;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  it('imports a single-animal DeepLabCut CSV: one individual "single", values at known frames', async () => {
    const set = await importFile(dlcCsv(single, { crlf: true }), 'M3DLC_resnet50.csv', { name: 'DLC run 1' });
    expect(set).toMatchObject({
      name: 'DLC run 1',
      format: 'dlc_csv',
      individuals: ['single'],
      bodyparts: PARTS,
      edges: [],
      frame_count: FRAMES,
      has_likelihood: true,
      frame_offset: 0,
    });
    await expectFrames(set, single, [0, 1, 13, 1023, 1024, FRAMES - 1]);
    // A window across the stored file's block boundary, cut at the last frame.
    const window = await framesOf(set, 1000, 1000);
    expect(window.frames.map((f) => f.frame)).toEqual(Array.from({ length: FRAMES - 1000 }, (_, i) => 1000 + i));
    expect(window.frames[24]!.individuals.single!.nose).toEqual(expectedPoint(single, 1024, 'single', 'nose'));
  });

  it('imports a multi-animal DeepLabCut CSV, with the unique body parts under "single"', async () => {
    const set = await importFile(dlcCsv(withUnique, { multi: true }), 'maDLC.csv');
    expect(set.individuals).toEqual(['mouse1', 'mouse2', 'single']);
    expect(set.bodyparts).toEqual([...PARTS, 'object_a', 'object_b']);
    expect(set.keypoints).toHaveLength(10);
    expect(set.keypoints.at(-1)).toEqual({ individual: 'single', bodypart: 'object_b' });
    expect(set.name).toBe('maDLC');
    await expectFrames(set, withUnique, [0, 5, 700, FRAMES - 1]);
  });

  it('imports hand-labelled CollectedData (x, y, image paths): likelihood null, other frames empty', async () => {
    const labelled = [3, 40, 41, 1200];
    const set = await importFile(dlcCsv(single, { labelledFrames: labelled }), 'CollectedData_Ana.csv');
    expect(set.has_likelihood).toBe(false);
    const sparse: PoseTruth = {
      ...single,
      point: (frame, individual, part) => (labelled.includes(frame) ? single.point(frame, individual, part) : null),
    };
    await expectFrames(set, sparse, [2, 3, 40, 41, 42, 1200], false);
  });

  it("imports DeepLabCut's .h5 (pandas table, labels pickled), single and multi-animal", async () => {
    const file = path.join(tmp, 'single.h5');
    await dlcH5(file, single);
    const set = await importFile(readFileSync(file), 'M3DLC_resnet50.h5');
    expect(set).toMatchObject({ format: 'dlc_h5', individuals: ['single'], bodyparts: PARTS, has_likelihood: true });
    await expectFrames(set, single, [0, 12, 1024, FRAMES - 1]);

    // Labels only in the group's non_index_axes, and a multi-animal index of four levels.
    const multi = path.join(tmp, 'multi.h5');
    await dlcH5(multi, pair, { multi: true, labelsOnGroupOnly: true });
    const pairSet = await importFile(readFileSync(multi), 'anything.bin');
    expect(pairSet).toMatchObject({ format: 'dlc_h5', individuals: ['mouse1', 'mouse2'] });
    await expectFrames(pairSet, pair, [0, 26, 1499]);
  });

  it("imports SLEAP's analysis .h5 in MATLAB order and in standard order, with its edges", async () => {
    const edges: [number, number][] = [
      [0, 1],
      [0, 2],
      [0, 3],
    ];
    const expectedEdges = edges.map(([a, b]) => [PARTS[a], PARTS[b]]);
    for (const order of ['matlab', 'standard'] as const) {
      const file = path.join(tmp, `sleap-${order}.h5`);
      await sleapH5(file, pair, edges, order);
      const set = await importFile(readFileSync(file), `labels.${order}.analysis.h5`);
      expect(set).toMatchObject({ format: 'sleap_h5', individuals: ['mouse1', 'mouse2'], bodyparts: PARTS });
      expect(set.edges).toEqual(expectedEdges);
      await expectFrames(set, pair, [0, 1, 8, 1024, FRAMES - 1]);
    }
    // Untracked (no track names): one individual, "single".
    const untracked = path.join(tmp, 'sleap-single.h5');
    await sleapH5(untracked, single, edges, 'matlab', { trackNames: false });
    const set = await importFile(readFileSync(untracked), 'single.analysis.h5');
    expect(set.individuals).toEqual(['single']);
    await expectFrames(set, single, [0, 999]);
  });

  it("imports SLEAP's analysis CSV (frames without instances are absent)", async () => {
    const set = await importFile(sleapCsv(pair), 'labels.analysis.csv');
    expect(set).toMatchObject({ format: 'sleap_csv', individuals: ['mouse1', 'mouse2'], bodyparts: PARTS });
    await expectFrames(set, pair, [0, 1, 13, 1024, FRAMES - 1]);
  });

  it('places a shorter file with frame_offset, and refuses one that runs past the video', async () => {
    const short = makeTruth(600, { single: PARTS });
    const set = await importFile(dlcCsv(short), 'part.csv', { frame_offset: '900' });
    expect(set.frame_offset).toBe(900);
    expect(set.frame_count).toBe(FRAMES);
    await expectFrames(set, short, [0, 899, 900, 901, 1499], true, 900);

    const past = await request(member, 'POST', poseUrl, form(dlcCsv(short), 'part.csv', { frame_offset: '901' }));
    expect(past.status).toBe(400);
    expect(past.json().errors.frame_offset[0]).toMatch(/600 frames run past the video's last frame \(1499\)/);
  });

  it('refuses broken files field by field, keeping nothing', async () => {
    const before = (await listSets()).length;
    const stored = () => poseFolders(videoUuid);
    const foldersBefore = stored();
    const refuse = async (file: Buffer, name: string, fields: Record<string, string> = {}) => {
      const response = await request(member, 'POST', poseUrl, form(file, name, fields));
      expect(response.status, response.text).toBe(400);
      return response.json().errors as Record<string, string[]>;
    };
    const wrongCount = await refuse(dlcCsv(makeTruth(1499, { single: PARTS })), 'short.csv');
    expect(wrongCount.file![0]).toMatch(/1499 frames and the video 1500: give frame_offset/);

    const noY = dlcCsv(makeTruth(FRAMES, { single: ['nose'] }))
      .toString()
      .split('\n')
      .map((line) =>
        line
          .split(',')
          .filter((_, i) => i !== 2)
          .join(','),
      )
      .join('\n');
    expect((await refuse(Buffer.from(noY), 'no-y.csv')).file![0]).toMatch(/Body part "nose" has x but no y column/);

    const badCoord = dlcCsv(single)
      .toString()
      .replace(/^coords,x,/m, 'coords,z,');
    expect((await refuse(Buffer.from(badCoord), 'z.csv')).file![0]).toMatch(/coords is "z"/);

    const badNumber = dlcCsv(single)
      .toString()
      .replace(/\n5,[^,]*,/, '\n5,abc,');
    expect((await refuse(Buffer.from(badNumber), 'abc.csv')).file![0]).toMatch(
      /Row 9, column 2: "abc" is not a number/,
    );

    expect((await refuse(Buffer.from('time,value\n0,1\n'), 'series.csv')).file![0]).toMatch(/^Not a pose file/);
    expect((await refuse(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), 'x.png')).file![0]).toMatch(
      /^Not a pose file/,
    );

    const notPose = path.join(tmp, 'other.h5');
    await h5wasm.ready;
    const images = new h5wasm.File(notPose, 'w');
    images.create_dataset({ name: 'images', data: new Uint8Array(16), shape: [4, 4] });
    images.close();
    expect((await refuse(readFileSync(notPose), 'labels.h5')).file![0]).toMatch(
      /HDF5 file, but not a pose file: it has neither "tracks".*Top-level names: images/,
    );
    // A damaged HDF5 file (bytes changed under its checksums): the library's complaint, as a 400.
    const sleapFile = path.join(tmp, 'damaged.h5');
    await sleapH5(sleapFile, single, [], 'matlab');
    const damaged = Buffer.from(readFileSync(sleapFile).toString('latin1').replaceAll('tracks', 'xracks'), 'latin1');
    expect((await refuse(damaged, 'damaged.h5')).file![0]).toMatch(/^The HDF5 file could not be read/);

    const sleapWrong = path.join(tmp, 'sleap-short.h5');
    await sleapH5(sleapWrong, makeTruth(1400, { single: PARTS }), [], 'matlab');
    expect((await refuse(readFileSync(sleapWrong), 'short.h5')).file![0]).toMatch(/1400 frames and the video 1500/);

    const twice = sleapCsv(pair, { untracked: true });
    expect((await refuse(twice, 'untracked.csv')).file![0]).toMatch(/second instance of an untracked animal/);

    expect((await refuse(dlcCsv(single), 'a.csv', { frame_offset: '-3' })).frame_offset).toBeDefined();
    const noFile = await request(
      member,
      'POST',
      poseUrl,
      (() => {
        const body = new FormData();
        body.append('name', 'nothing');
        return body;
      })(),
    );
    expect(noFile.status).toBe(400);
    expect(noFile.json().errors.file).toBeDefined();

    expect((await listSets()).length).toBe(before);
    expect(stored()).toEqual(foldersBefore);
    // Nor anything left in the temporary folders of uploads.
    expect(readdirSync(path.join(t.dataDir, 'tmp')).filter((name) => name.startsWith('import-'))).toEqual([]);
  });

  it("takes a DeepLabCut file's skeleton from its config.yaml (a second field), and refuses a bad one by field", async () => {
    const skeleton: [string, string][] = [
      ['nose', 'left_ear'],
      ['nose', 'right_ear'],
      ['left_ear', 'tail_base'],
    ];
    const csv = await request(
      member,
      'POST',
      poseUrl,
      form(dlcCsv(single), 'M3DLC.csv', {}, dlcConfigYaml(single, skeleton)),
    );
    expect(csv.status, csv.text).toBe(201);
    const set = csv.json() as PoseSet;
    expect(set.edges).toEqual(skeleton);
    // Stored as SLEAP's edges are: the list and the set's own answer say the same.
    expect((await listSets()).find((item) => item.pose_uuid === set.pose_uuid)?.edges).toEqual(skeleton);
    await expectFrames(set, single, [0, 1024]);

    // A multi-animal .h5 with the multi-animal config.
    const multi = path.join(tmp, 'multi-config.h5');
    await dlcH5(multi, withUnique, { multi: true });
    const maConfig = dlcConfigYaml(
      withUnique,
      [
        ['nose', 'tail_base'],
        ['object_a', 'object_b'],
      ],
      { multi: true },
    );
    const h5 = await request(member, 'POST', poseUrl, form(readFileSync(multi), 'ma.h5', {}, maConfig));
    expect(h5.status, h5.text).toBe(201);
    expect((h5.json() as PoseSet).edges).toEqual([
      ['nose', 'tail_base'],
      ['object_a', 'object_b'],
    ]);

    const before = (await listSets()).length;
    const foldersBefore = poseFolders(videoUuid);
    const refuse = async (file: Buffer, name: string, config: Buffer) => {
      const response = await request(member, 'POST', poseUrl, form(file, name, {}, config));
      expect(response.status, response.text).toBe(400);
      return response.json().errors as Record<string, string[]>;
    };
    expect(await refuse(dlcCsv(single), 'a.csv', dlcConfigYaml(single, [['nose', 'tailbase']]))).toEqual({
      config: [
        'Edge 1 of "skeleton" names "tailbase", which the pose file does not have; its body parts: nose, left_ear, right_ear, tail_base.',
      ],
    });
    expect((await refuse(dlcCsv(single), 'a.csv', Buffer.from('skeleton: [[nose, left_ear]\n'))).config![0]).toMatch(
      /^config\.yaml is not valid YAML \(line \d+, column \d+\)/,
    );
    expect((await refuse(dlcCsv(single), 'a.csv', Buffer.from('Task: openfield\n'))).config![0]).toMatch(
      /has no "skeleton"/,
    );
    const sleap = path.join(tmp, 'sleap-config.h5');
    await sleapH5(sleap, pair, [[0, 1]], 'matlab');
    expect((await refuse(readFileSync(sleap), 'x.h5', dlcConfigYaml(single, skeleton))).config![0]).toMatch(
      /^This is a SLEAP file, whose skeleton comes with it/,
    );
    const huge = Buffer.concat([dlcConfigYaml(single, skeleton), Buffer.alloc(300 * 1024, '#')]);
    expect(await refuse(dlcCsv(single), 'a.csv', huge)).toEqual({
      config: ["config.yaml is larger than 256 KB: DeepLabCut's own are a few kilobytes."],
    });
    // The file's own errors come first; nothing of any refused import is kept.
    const wrongCount = await refuse(dlcCsv(makeTruth(10, { single: PARTS })), 'short.csv', Buffer.from('x'));
    expect(Object.keys(wrongCount)).toEqual(['file']);
    expect((await listSets()).length).toBe(before);
    expect(poseFolders(videoUuid)).toEqual(foldersBefore);
  });

  it('lets viewers read, not import; non-members see 404', async () => {
    const file = dlcCsv(single);
    expect((await request(viewer, 'POST', poseUrl, form(file, 'a.csv'))).status).toBe(403);
    expect((await request(outsider, 'POST', poseUrl, form(file, 'a.csv'))).status).toBe(404);
    expect((await request(outsider, 'GET', poseUrl)).status).toBe(404);
    const [set] = await listSets();
    expect((await request(outsider, 'GET', `${poseUrl}${set!.pose_uuid}/frames/`)).status).toBe(404);
    expect((await request(viewer, 'DELETE', `${poseUrl}${set!.pose_uuid}/`)).status).toBe(403);
    expect((await request(viewer, 'GET', `${poseUrl}${randomUUID()}/frames/`)).status).toBe(404);
    const tooMany = await request(viewer, 'GET', `${poseUrl}${set!.pose_uuid}/frames/?start=0&count=1001`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.json().errors.count).toBeDefined();
    const past = await request(viewer, 'GET', `${poseUrl}${set!.pose_uuid}/frames/?start=${FRAMES}`);
    expect(past.status).toBe(400);
    expect(past.json().errors.start[0]).toMatch(/frames 0–1499/);
  });

  it('exports DeepLabCut CSV that imports back to the same values, and a tidy CSV', async () => {
    for (const source of [
      { file: dlcCsv(single), name: 'single.csv', truth: single },
      { file: sleapCsv(pair), name: 'pair.csv', truth: pair },
      { file: dlcCsv(withUnique, { multi: true }), name: 'ma.csv', truth: withUnique },
    ]) {
      const set = await importFile(source.file, source.name);
      const exported = await request(viewer, 'GET', `${poseUrl}${set.pose_uuid}/export/?format=dlc`);
      expect(exported.status).toBe(200);
      expect(exported.headers.get('content-disposition')).toMatch(/pose-dlc\.csv/);
      const again = await importFile(Buffer.from(exported.text), 'exported.csv');
      expect(again).toMatchObject({
        format: 'dlc_csv',
        individuals: set.individuals,
        bodyparts: set.bodyparts,
        keypoints: set.keypoints,
      });
      for (const start of [0, 1000]) {
        expect((await framesOf(again, start, 500)).frames).toEqual((await framesOf(set, start, 500)).frames);
      }
    }

    const set = (await listSets()).find(
      (s) => s.format === 'dlc_csv' && s.individuals.length === 1 && s.has_likelihood,
    )!;
    const tidy = await request(viewer, 'GET', `${poseUrl}${set.pose_uuid}/export/?format=tidy`);
    expect(tidy.status).toBe(200);
    const lines = tidy.text.trim().split('\n');
    expect(lines[0]).toBe('frame,time_s,individual,bodypart,x,y,likelihood');
    let present = 0;
    for (let frame = 0; frame < FRAMES; frame++) {
      for (const part of PARTS) if (single.point(frame, 'single', part)) present++;
    }
    expect(lines.length - 1).toBe(present);
    const row = lines.find((line) => line.startsWith('1024,'))!.split(',');
    const [x, y, l] = expectedPoint(single, 1024, 'single', row[3]!)!;
    expect(row.slice(0, 3)).toEqual(['1024', String(Math.round((1024 / FPS) * 1e6) / 1e6), 'single']);
    expect([Math.fround(Number(row[4])), Math.fround(Number(row[5])), Math.fround(Number(row[6]))]).toEqual([x, y, l]);
    expect((await request(viewer, 'GET', `${poseUrl}${set.pose_uuid}/export/?format=xls`)).status).toBe(400);
  });

  it('deletes a set and its file; a video in the trash keeps its sets for a restore', async () => {
    const set = await importFile(dlcCsv(single), 'delete-me.csv');
    const key = poseSetKeys({ projectUuid: project.projectUuid, videoUuid, poseUuid: set.pose_uuid }).points;
    expect(await t.ctx.storage.stat(key)).not.toBeNull();
    expect((await request(member, 'DELETE', `${poseUrl}${set.pose_uuid}/`)).status).toBe(204);
    expect(await t.ctx.storage.stat(key)).toBeNull();
    expect((await request(viewer, 'GET', `${poseUrl}${set.pose_uuid}/frames/`)).status).toBe(404);

    const other = await createVideo(FRAMES);
    const otherUrl = `${project.videosUrl}${other}/pose/`;
    const kept = await request(member, 'POST', otherUrl, form(dlcCsv(single), 'kept.csv'));
    expect(kept.status).toBe(201);
    const keptSet = kept.json() as PoseSet;
    const deleted = await request(owner, 'DELETE', `${project.videosUrl}${other}/`);
    expect(deleted.status).toBe(204);
    expect((await request(viewer, 'GET', otherUrl)).status).toBe(404);
    const trash = await request(owner, 'GET', `/api/projects/${project.projectUuid}/trash/`);
    const item = (trash.json().results as { item_uuid: string; video_uuid: string }[]).find(
      (i) => i.video_uuid === other,
    )!;
    expect(
      (await request(owner, 'POST', `/api/projects/${project.projectUuid}/trash/${item.item_uuid}/restore/`)).status,
    ).toBe(200);
    const restored = await listSets(otherUrl);
    expect(restored.map((s) => s.pose_uuid)).toEqual([keptSet.pose_uuid]);
    await expectFrames(restored[0]!, single, [0, 1499], true, 0, otherUrl);
  });
});
