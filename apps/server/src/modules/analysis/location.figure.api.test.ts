/**
 * A location-tracking run's figures through the API (issue 22, ADR 025): a real run on the generated gliding-box
 * video, its track and heat map as SVG (parsed: the path holds the stored positions as decimated, the zones, the
 * scale bar, the reference picture) and PNG (decoded: the video's size); a run with a generated track of known
 * truth, whose heat-map bins equal the reference implementation; a download name; 400 for bad input or a run
 * that has no figures; 404 for non-members and another project's run.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import {
  createProjectWithSubject,
  type ProjectWithSubject,
  uploadVideo,
  waitForVideo,
} from '../../../test/factories-videos.js';
import { LOCATION_FIXTURE, locationVideo } from '../../../test/fixtures/location-videos.js';
import { readPng } from '../../../test/png-read.js';
import { byId, findAll, readSvg, type SvgElement } from '../../../test/svg-read.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { analyses, videos } from '../../db/schema.js';
import { analysisKeys } from '../../lib/storage-keys.js';
import { referenceBinSeconds, referencePath } from './engine/location/figure.reference.js';

const F = LOCATION_FIXTURE;

const ZONES = [
  {
    name: 'Left & half',
    points: [
      [0, 0],
      [160, 0],
      [160, 240],
      [0, 240],
    ],
  },
  {
    name: 'Band',
    points: [
      [100, 90],
      [220, 90],
      [220, 150],
      [100, 150],
    ],
  },
];

describe('location figures API', () => {
  let t: TestApp;
  let owner: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let project: ProjectWithSubject;
  let videoUrl: string;
  let analysisUrl: string;
  let runUuid: string;

  const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: user.headers });
  const figure = (user: TestUser, uuid: string, query: string) => get(user, `${analysisUrl}${uuid}/figure/?${query}`);

  async function storedTrack(uuid: string) {
    const response = await get(owner, `${analysisUrl}${uuid}/series/`);
    expect(response.statusCode).toBe(200);
    const both = new Float64Array(new Uint8Array(response.rawPayload).buffer);
    const frames = both.length / 2;
    return { x: both.slice(0, frames), y: both.slice(frames) };
  }

  /** A copy of the real run's row under a new id (same video, source and parameters), changed by `changes`. */
  async function copyRun(changes: Partial<typeof analyses.$inferInsert>) {
    const [real] = await t.ctx.db.select().from(analyses).where(eq(analyses.analysisUuid, runUuid));
    const { analysisUuid: _, ...rest } = real!;
    const [copy] = await t.ctx.db
      .insert(analyses)
      .values({ ...rest, analysisUuid: randomUUID(), ...changes })
      .returning();
    return copy!;
  }

  beforeAll(async () => {
    t = await createTestApp({ workers: true });
    owner = await createUser(t.ctx);
    viewer = await createUser(t.ctx);
    outsider = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    const uploaded = await uploadVideo(t.app, owner, project.videosUrl, locationVideo());
    expect(uploaded.statusCode).toBe(201);
    videoUrl = `${project.videosUrl}${uploaded.json().video_uuid}/`;
    expect((await waitForVideo(t.app, owner, videoUrl)).status).toBe('ready');
    analysisUrl = `${videoUrl}analysis/`;
    const created = await t.app.inject({
      method: 'POST',
      url: analysisUrl,
      headers: owner.headers,
      payload: {
        kind: 'location_tracking',
        parameters: { zones: ZONES, scale: { px_distance: 100, true_distance: 5, unit: 'cm' } },
      },
    });
    expect(created.statusCode).toBe(201);
    runUuid = created.json().analysis_uuid;
    const deadline = Date.now() + 120_000;
    for (;;) {
      const run = (await get(owner, `${analysisUrl}${runUuid}/`)).json();
      if (run.status === 'succeeded') break;
      if (!['queued', 'running'].includes(run.status) || Date.now() > deadline) throw new Error(JSON.stringify(run));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 180_000);

  afterAll(async () => {
    await t?.close();
  });

  it('draws the track as SVG: the stored positions as decimated, the zones named, the scale bar, the reference', async () => {
    const response = await figure(viewer, runUuid, 'name=track&format=svg');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
    const date = new Date().toISOString().slice(0, 10);
    expect(response.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="M[0-9a-f]{6}_gliding-box_location-${date}_track\\.svg"`),
    );
    const svg = readSvg(response.body);
    expect([svg.attributes.width, svg.attributes.height]).toEqual([String(F.width), String(F.height)]);

    const { x, y } = await storedTrack(runUuid);
    expect(x.filter((value) => !Number.isNaN(value)).length).toBeGreaterThan(F.frames * 0.9);
    const path = findAll(byId(svg, 'track')!, (node) => node.name === 'path')[0]!;
    const drawn = path.attributes
      .d!.split('M')
      .filter(Boolean)
      .map((piece) =>
        piece
          .trim()
          .split(/\s*L\s*/)
          .map((pair) => pair.split(' ').map(Number)),
      );
    const expected = referencePath(x, y);
    expect(drawn.length).toBe(expected.length);
    drawn.forEach((piece, i) => {
      const want = expected[i]!.length === 1 ? [expected[i]![0]!, expected[i]![0]!] : expected[i]!;
      expect(piece.length).toBe(want.length);
      piece.forEach(([px, py], k) => {
        expect(px).toBeCloseTo(want[k]![0], 2);
        expect(py).toBeCloseTo(want[k]![1], 2);
      });
    });
    // The box glides right, always more than a pixel a frame: every frame is kept.
    expect(drawn.flat().length).toBe(x.filter((value) => !Number.isNaN(value)).length);

    const zones = findAll(svg, (node) => node.attributes.class === 'zone');
    expect(zones.map((zone) => zone.attributes['data-name'])).toEqual(ZONES.map((zone) => zone.name));
    zones.forEach((zone, z) => {
      const polygon = zone.children.find((node) => node.name === 'polygon')!;
      expect(polygon.attributes.points).toBe(ZONES[z]!.points.map((p) => p.join(',')).join(' '));
      expect(zone.children.find((node) => node.name === 'text')!.text).toBe(ZONES[z]!.name);
    });

    // 100 px = 5 cm; the bar is at most a quarter of the width (4 cm): 2 cm, 40 px.
    const scaleBar = byId(svg, 'scale-bar')!;
    expect(scaleBar.attributes).toMatchObject({ 'data-length': '2', 'data-unit': 'cm', 'data-px': '40' });
    const bar = scaleBar.children.find((node) => node.attributes.class === 'bar')!;
    expect(Number(bar.attributes.width)).toBe(40);
    expect(scaleBar.children.find((node) => node.name === 'text')!.text).toBe('2 cm');

    // The embedded reference is the stored one, as 8-bit grey.
    const image = byId(svg, 'reference') as SvgElement;
    const png = readPng(Buffer.from(image.attributes.href!.replace('data:image/png;base64,', ''), 'base64'));
    expect([png.width, png.height, png.channels]).toEqual([F.width, F.height, 1]);
    const [real] = await t.ctx.db.select().from(analyses).where(eq(analyses.analysisUuid, runUuid));
    const chunks: Buffer[] = [];
    for await (const chunk of await t.ctx.storage.read(analysisKeys(real!).reference)) chunks.push(chunk as Buffer);
    const stored = Buffer.concat(chunks);
    const reference = new Float32Array(stored.buffer, stored.byteOffset, stored.length / 4);
    expect(Array.from(png.pixels)).toEqual(Array.from(reference, (value) => Math.round(value)));
    // The empty arena is light (0xC0).
    expect(Math.abs(png.pixels[10 * F.width + 300]! - 0xc0)).toBeLessThanOrEqual(2);
  }, 60_000);

  it('draws both figures as PNG of the video’s size; the start and end marked on the path', async () => {
    const { x, y } = await storedTrack(runUuid);
    for (const name of ['track', 'heatmap']) {
      const response = await figure(viewer, runUuid, `name=${name}&format=png`);
      expect(response.statusCode, name).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.headers['content-disposition']).toMatch(new RegExp(`_${name}\\.png"`));
      const bytes = response.rawPayload;
      expect(Array.from(bytes.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
      expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([F.width, F.height]);
      const png = readPng(bytes);
      expect([png.width, png.height, png.channels]).toEqual([F.width, F.height, 3]);
      if (name !== 'track') continue;
      const pixel = (px: number, py: number) => {
        const at = 3 * (Math.floor(py) * F.width + Math.floor(px));
        return Array.from(png.pixels.subarray(at, at + 3));
      };
      const first = [...x.keys()].find((f) => !Number.isNaN(x[f]!))!;
      const last = [...x.keys()].findLast((f) => !Number.isNaN(x[f]!))!;
      expect(pixel(x[first]!, y[first]!)).toEqual([255, 255, 255]);
      expect(pixel(x[last]!, y[last]!)).toEqual([0, 0, 0]);
    }
  }, 60_000);

  it('bins a generated track of known truth as the reference implementation does', async () => {
    const fps = F.fps;
    // 2 s at (12.3, 7.9), 10 lost frames, 1 s at (319.9, 239.5), then a sweep across the picture.
    const x = [
      ...Array(60).fill(12.3),
      ...Array(10).fill(Number.NaN),
      ...Array(30).fill(319.9),
      ...Array.from({ length: 300 }, (_, i) => i + 0.5),
    ];
    const y = [
      ...Array(60).fill(7.9),
      ...Array(10).fill(Number.NaN),
      ...Array(30).fill(239.5),
      ...Array.from({ length: 300 }, (_, i) => 20 + i * 0.6),
    ];
    const copy = await copyRun({ sampleCount: x.length });
    const key = analysisKeys(copy).track;
    await t.ctx.storage.write(key, Buffer.from(Float64Array.from([...x, ...y]).buffer));
    await t.ctx.db.update(analyses).set({ seriesKey: key }).where(eq(analyses.analysisUuid, copy.analysisUuid));

    const response = await figure(owner, copy.analysisUuid, 'name=heatmap&format=svg');
    expect(response.statusCode).toBe(200);
    const svg = readSvg(response.body);
    const heat = byId(svg, 'heatmap')!;
    expect(heat.attributes['data-bin-px']).toBe('5');
    const drawn = new Map(
      heat.children.map((cell) => [
        `${Number(cell.attributes.x) / 5},${Number(cell.attributes.y) / 5}`,
        Number(cell.attributes['data-seconds']),
      ]),
    );
    const expected = referenceBinSeconds(x, y, F.width, F.height, fps);
    expect(drawn.size).toBe(expected.size);
    for (const [bin, seconds] of expected) expect(drawn.get(bin), bin).toBeCloseTo(seconds, 12);
    // The known stays: bin (2, 1) holds 2 s, the last bin (63, 47) 1 s; the fullest is 2 s.
    expect(drawn.get('2,1')).toBe(2);
    expect(drawn.get('63,47')).toBe(1);
    expect(byId(svg, 'colour-bar')!.attributes['data-max-seconds']).toBe('2');
    // Its track breaks at the lost frames only: two pieces (the stay; the corner and the sweep).
    const track = readSvg((await figure(owner, copy.analysisUuid, 'name=track&format=svg')).body);
    const d = findAll(byId(track, 'track')!, (node) => node.name === 'path')[0]!.attributes.d!;
    expect(d.match(/M/g)).toHaveLength(2);
    expect(d.startsWith('M12.3 7.9 L12.3 7.9 M319.9 239.5 L0.5 20')).toBe(true);
  });

  it('refuses bad names and formats, and runs without figures, by field (400)', async () => {
    for (const [query, field] of [
      ['name=map&format=png', 'name'],
      ['format=svg', 'name'],
      ['name=track&format=gif', 'format'],
    ] as const) {
      const response = await figure(owner, runUuid, query);
      expect(response.statusCode, query).toBe(400);
      expect(Object.keys(response.json().errors), query).toEqual([field]);
    }
    const movement = await copyRun({ kind: 'movement_detection' });
    const running = await copyRun({ status: 'running', seriesKey: null, finishedAt: null });
    for (const [uuid, message] of [
      [movement.analysisUuid, /location-tracking runs only/],
      [running.analysisUuid, /not finished/],
    ] as const) {
      const response = await figure(owner, uuid, 'name=track&format=svg');
      expect(response.statusCode).toBe(400);
      expect(response.json().errors.analysis_uuid[0]).toMatch(message);
    }
  });

  it('hides figures from non-members and another project’s run (404)', async () => {
    for (const query of ['name=track&format=png', 'name=heatmap&format=svg']) {
      expect((await figure(outsider, runUuid, query)).statusCode).toBe(404);
    }
    // Another project's run, named under this project's video, is not found even by its owner.
    const other = await createProjectWithSubject(t.ctx, owner);
    const [real] = await t.ctx.db.select().from(analyses).where(eq(analyses.analysisUuid, runUuid));
    const [video] = await t.ctx.db.select().from(videos).where(eq(videos.videoUuid, real!.videoUuid));
    const { videoUuid: _, ...videoRest } = video!;
    const [otherVideo] = await t.ctx.db
      .insert(videos)
      .values({ ...videoRest, projectUuid: other.projectUuid, subjectUuid: other.subjectUuid })
      .returning();
    const foreign = await copyRun({
      projectUuid: other.projectUuid,
      subjectUuid: other.subjectUuid,
      videoUuid: otherVideo!.videoUuid,
    });
    expect((await figure(owner, foreign.analysisUuid, 'name=track&format=svg')).statusCode).toBe(404);
    const ownUrl = `${other.videosUrl}${otherVideo!.videoUuid}/analysis/${foreign.analysisUuid}/figure/?name=track`;
    expect((await get(owner, ownUrl)).statusCode).toBe(200);
  });
});
