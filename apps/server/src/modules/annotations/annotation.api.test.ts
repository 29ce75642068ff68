import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject, type ProjectWithSubject, uploadVideo } from '../../../test/factories-videos.js';
import { H264_FIXTURE, videoFixtures } from '../../../test/fixtures/videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { BORIS_COLUMNS } from './annotation.files.js';

type Track = {
  annotation_config_uuid: string;
  name: string;
  color: string;
  hotkey: string | null;
  order: number;
  range_count: number;
  total_duration_s: number;
  version: number;
  created_by: { id: number; display_name: string } | null;
  created_at: string;
};
type Ranges = { annotation_config_uuid: string; ranges: [number, number][]; version: number };

describe('annotations API', () => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let project: ProjectWithSubject;
  /** `…/videos/{v}/annotations/` of the 3-second, 30 fps fixture (real ffprobe facts). */
  let annotations: string;
  let secondVideo: string;

  const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: user.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const createTrack = async (body: object, url = annotations) => {
    const response = await call(member, 'POST', `${url}config/`, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Track;
  };
  const rangesOf = async (uuid: string) => (await call(viewer, 'GET', `${annotations}${uuid}/`)).json() as Ranges;

  function csvUpload(uuid: string, content: string | Buffer | null, filename = 'bouts.csv', fields = {}) {
    const boundary = `----csv${randomUUID().replace(/-/g, '')}`;
    const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
    if (content !== null) {
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`,
        ),
        Buffer.from(content),
        Buffer.from('\r\n'),
      );
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    return t.app.inject({
      method: 'POST',
      url: `${annotations}${uuid}/import/`,
      headers: { ...member.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat(parts),
    });
  }

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx);
    member = await createUser(t.ctx, { firstName: 'Mia', lastName: 'Member' });
    viewer = await createUser(t.ctx);
    outsider = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, member.id, 'member');
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    const fixture = videoFixtures().h264Mp4;
    const first = await uploadVideo(t.app, owner, project.videosUrl, fixture, { fields: { name: 'Day 1' } });
    expect(first.statusCode, first.body).toBe(201);
    annotations = `${project.videosUrl}${first.json().video_uuid}/annotations/`;
    const second = await uploadVideo(t.app, owner, project.videosUrl, fixture, { fields: { name: 'Day 2' } });
    secondVideo = `${project.videosUrl}${second.json().video_uuid}/annotations/`;
  });
  afterAll(() => t.close());

  it('creates tracks with a palette colour and the next order, and lists them with their figures', async () => {
    const grooming = await createTrack({ name: ' Grooming ', hotkey: 'G' });
    expect(grooming).toMatchObject({
      name: 'Grooming',
      hotkey: 'g',
      order: 0,
      range_count: 0,
      total_duration_s: 0,
      version: 0,
      created_by: { id: member.id, display_name: 'Mia Member' },
    });
    expect(grooming.color).toMatch(/^#[0-9a-f]{6}$/);
    const rearing = await createTrack({ name: 'Rearing', color: '#2563EB', hotkey: 'r' });
    expect(rearing).toMatchObject({ order: 1, color: '#2563eb' });

    const list = await call(viewer, 'GET', `${annotations}config/`);
    expect(list.statusCode).toBe(200);
    const tracks = list.json() as Track[];
    expect(tracks.map((track) => track.name)).toEqual(['Grooming', 'Rearing']);
    expect(Object.keys(tracks[0]!).sort()).toEqual(
      [
        'annotation_config_uuid',
        'name',
        'color',
        'hotkey',
        'order',
        'range_count',
        'total_duration_s',
        'version',
        'created_by',
        'created_at',
      ].sort(),
    );
  });

  it('refuses a taken name or hot key, a bad colour or key, and creates nothing', async () => {
    const before = (await call(viewer, 'GET', `${annotations}config/`)).json().length;
    const cases: [object, Record<string, string[]>][] = [
      [{ name: 'grooming' }, { name: ['This video already has a track named "grooming".'] }],
      [{ name: 'Sniffing', hotkey: 'g' }, { hotkey: ['The key "g" is already used by the track "Grooming".'] }],
      [{ name: 'Sniffing', color: 'red' }, { color: ['A colour is #rrggbb, e.g. #e11d48.'] }],
      [{ name: 'Sniffing', hotkey: ' ' }, { hotkey: ['A hot key is one letter (a–z) or digit (0–9).'] }],
      [{ name: '  ' }, { name: ['A track needs a name.'] }],
      [{ name: 'a\tb' }, { name: ['A track name cannot hold tabs, line breaks or other control characters.'] }],
    ];
    for (const [body, errors] of cases) {
      const response = await call(member, 'POST', `${annotations}config/`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({ errors });
    }
    expect((await call(viewer, 'GET', `${annotations}config/`)).json()).toHaveLength(before);
  });

  it('renames, recolours, re-keys and reorders a track with PATCH and PUT; keys stay unique', async () => {
    const track = await createTrack({ name: 'Freezing', hotkey: 'f' });
    const url = `${annotations}config/${track.annotation_config_uuid}/`;
    const patched = await call(member, 'PATCH', url, { name: 'Freezing bout', color: '#000000' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ name: 'Freezing bout', color: '#000000', hotkey: 'f', version: 0 });

    const clash = await call(member, 'PATCH', url, { hotkey: 'r' });
    expect(clash.json()).toEqual({ errors: { hotkey: ['The key "r" is already used by the track "Rearing".'] } });
    expect((await call(member, 'PATCH', url, {})).statusCode).toBe(400);

    const put = await call(member, 'PUT', url, { name: 'Freezing', color: '#111111', order: 7 });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ name: 'Freezing', color: '#111111', hotkey: null, order: 7 });
    // The same name in another case is the track itself, not a clash.
    expect((await call(member, 'PATCH', url, { name: 'FREEZING' })).statusCode).toBe(200);
    expect((await call(member, 'PUT', url, { name: 'Freezing' })).json()).toEqual({
      errors: { color: ['A colour is #rrggbb.'] },
    });
  });

  it('replaces ranges under a version; bad rows are named and change nothing; a stale version is 409', async () => {
    const track = await createTrack({ name: 'Twitch' });
    const uuid = track.annotation_config_uuid;
    expect(await rangesOf(uuid)).toEqual({ annotation_config_uuid: uuid, ranges: [], version: 0 });

    const good = [
      [0, 0.5],
      [0.5, 1],
      [2, 3],
    ];
    const saved = await call(member, 'PUT', `${annotations}${uuid}/`, { ranges: good, version: 0 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ annotation_config_uuid: uuid, ranges: good, version: 1 });
    const listed = ((await call(viewer, 'GET', `${annotations}config/`)).json() as Track[]).find(
      (row) => row.annotation_config_uuid === uuid,
    );
    expect(listed).toMatchObject({ range_count: 3, total_duration_s: 2, version: 1 });

    const bad: [unknown, string[]][] = [
      [
        [
          [0, 1],
          [2, 1.5],
        ],
        ['Row 2 must have start time less than the end time.'],
      ],
      [
        [
          [0, 1],
          [0.5, 2],
        ],
        ['Row 2: value 0.5 is not non-decreasing.'],
      ],
      [[[-0.1, 1]], ['Row 1: times cannot be negative.']],
      [[[2, 3.5]], [`Row 1: value 3.5 is after the end of the video (${H264_FIXTURE.seconds} s).`]],
      [[[0, 'one']], ['end must be a number.']],
    ];
    for (const [ranges, messages] of bad) {
      const response = await call(member, 'PUT', `${annotations}${uuid}/`, { ranges, version: 1 });
      expect(response.statusCode, JSON.stringify(ranges)).toBe(400);
      const errors = response.json().errors as Record<string, string[]>;
      expect(Object.values(errors).flat()).toEqual(messages);
      expect(Object.keys(errors)[0]).toMatch(/^ranges/);
    }
    expect(await rangesOf(uuid)).toEqual({ annotation_config_uuid: uuid, ranges: good, version: 1 });

    const stale = await call(member, 'PUT', `${annotations}${uuid}/`, { ranges: [[0, 1]], version: 0 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ version: 1, ranges: good });
    expect(stale.json().errors).toContain('changed by someone else');
    expect((await call(member, 'PUT', `${annotations}${uuid}/`, { ranges: [] })).json()).toEqual({
      errors: { version: ['version is required: the version of the ranges you changed.'] },
    });
  });

  it('changes part of the ranges with PATCH: remove exact ranges, add ranges that overlap nothing', async () => {
    const track = await createTrack({ name: 'Sniffing' });
    const url = `${annotations}${track.annotation_config_uuid}/`;
    let response = await call(member, 'PATCH', url, { version: 0, add: [[1, 2]] });
    expect(response.json()).toMatchObject({ ranges: [[1, 2]], version: 1 });
    response = await call(member, 'PATCH', url, {
      version: 1,
      add: [
        [2.5, 3],
        [0, 0.2],
      ],
    });
    expect(response.json()).toMatchObject({
      ranges: [
        [0, 0.2],
        [1, 2],
        [2.5, 3],
      ],
      version: 2,
    });
    // An edge moved: the old range out, the new one in, in one change.
    response = await call(member, 'PATCH', url, { version: 2, remove: [[1, 2]], add: [[0.9, 2.2]] });
    expect(response.json().ranges).toEqual([
      [0, 0.2],
      [0.9, 2.2],
      [2.5, 3],
    ]);

    const bad: [object, Record<string, string[]>][] = [
      [{ add: [[2, 2.6]] }, { add: ['Row 1: [2, 2.6] overlaps [0.9, 2.2].', 'Row 1: [2, 2.6] overlaps [2.5, 3].'] }],
      [{ remove: [[1, 2]] }, { remove: ['Row 1: [1, 2] is not a range of this track.'] }],
      [
        {
          add: [
            [2.2, 2.4],
            [3, 4],
          ],
        },
        { add: ['Row 2: value 4 is after the end of the video (3 s).'] },
      ],
      [{ add: [[0.5, 0.4]] }, { add: ['Row 1 must have start time less than the end time.'] }],
      [{}, { non_field_errors: ['Give ranges to add or remove.'] }],
    ];
    for (const [body, errors] of bad) {
      const bad = await call(member, 'PATCH', url, { version: 3, ...body });
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json()).toEqual({ errors });
    }
    expect((await rangesOf(track.annotation_config_uuid)).version).toBe(3);

    const stale = await call(member, 'PATCH', url, { version: 1, add: [[2.3, 2.4]] });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ version: 3, ranges: response.json().ranges });
  });

  it('lets exactly one of two changes made on the same version win', async () => {
    const track = await createTrack({ name: 'Race' });
    const url = `${annotations}${track.annotation_config_uuid}/`;
    const answers = await Promise.all([
      call(member, 'PATCH', url, { version: 0, add: [[0, 1]] }),
      call(owner, 'PATCH', url, { version: 0, add: [[1, 2]] }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const loser = answers.find((answer) => answer.statusCode === 409)!.json();
    const winner = answers.find((answer) => answer.statusCode === 200)!.json();
    expect(loser).toMatchObject({ version: 1, ranges: winner.ranges });
  });

  it('imports a time-range CSV with the spec §5 messages, changing nothing on a bad file', async () => {
    const track = await createTrack({ name: 'Imported' });
    const uuid = track.annotation_config_uuid;
    const bad: [string | Buffer | null, string, string][] = [
      [null, 'bouts.csv', 'CSV is empty'],
      ['0,1\n', 'bouts.txt', 'File is not a CSV'],
      ['', 'bouts.csv', 'Could not read the file or file is empty.'],
      [Buffer.from([0xff, 0xfe, 0x00, 0x31]), 'bouts.csv', 'Could not read the file or file is empty.'],
      ['start,end\n', 'bouts.csv', 'CSV has no data rows.'],
      ['start,end\n0,1\n1,2,3\n', 'bouts.csv', 'Row 2 does not have exactly two values.'],
      ['0,1\nsoon,2\n', 'bouts.csv', 'Row 2 contains non-numeric values.'],
      ['0,1\n2,2\n', 'bouts.csv', 'Row 2 must have start time less than the end time.'],
      ['0,1\n0.5,2\n', 'bouts.csv', 'Row 2: value 0.5 is not non-decreasing.'],
      ['0,1\n2,5\n', 'bouts.csv', 'Row 2: value 5 is after the end of the video (3 s).'],
    ];
    for (const [content, filename, message] of bad) {
      const response = await csvUpload(uuid, content, filename);
      expect(response.statusCode, message).toBe(400);
      expect(response.json()).toEqual({ errors: { file: [message] } });
    }
    expect(await rangesOf(uuid)).toMatchObject({ ranges: [], version: 0 });

    const good = await csvUpload(uuid, 'start,end\r\n0.1,0.5\r\n1,2.25\r\n');
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json()).toEqual({
      annotation_config_uuid: uuid,
      ranges: [
        [0.1, 0.5],
        [1, 2.25],
      ],
      version: 1,
    });
    const stale = await csvUpload(uuid, '0,1\n', 'again.csv', { version: '0' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ version: 1 });
    const notMultipart = await call(member, 'POST', `${annotations}${uuid}/import/`, { file: '0,1' });
    expect(notMultipart.statusCode).toBe(415);
  });

  it('a body cut off in the middle of the file is a read failure', async () => {
    const track = await createTrack({ name: 'Cut off' });
    const boundary = '----cut';
    const response = await t.app.inject({
      method: 'POST',
      url: `${annotations}${track.annotation_config_uuid}/import/`,
      headers: { ...member.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.csv"\r\n\r\n0,1\n1,2`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ errors: { file: ['Error reading file. Please try again.'] } });
  });

  it('exports a track as CSV (times to the microsecond) that imports back to those times', async () => {
    const track = await createTrack({ name: 'Round trip' });
    const uuid = track.annotation_config_uuid;
    const frame = 1 / H264_FIXTURE.fps;
    const ranges = [
      [3 * frame, 17 * frame],
      [17 * frame, 31 * frame],
      [1.2345678901234, 1.5 + 0.1 + 0.2],
      [2, 89 * frame],
    ].sort((a, b) => a[0]! - b[0]!);
    expect((await call(member, 'PUT', `${annotations}${uuid}/`, { ranges, version: 0 })).statusCode).toBe(200);
    const exported = await call(viewer, 'GET', `${annotations}${uuid}/export/?format=csv`);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('text/csv');
    expect(exported.headers['content-disposition']).toMatch(
      /^attachment; filename="[^"]+_Round-trip\.csv"; filename\*=/,
    );
    expect(exported.body.split('\r\n')[0]).toBe('start,end');

    const copy = await createTrack({ name: 'Round trip copy' });
    const imported = await csvUpload(copy.annotation_config_uuid, exported.body, 'Round_trip.csv');
    expect(imported.statusCode, imported.body).toBe(200);
    // A time within a microsecond of a frame's start comes back as that frame's start (k / fps, snapped from the
    // printed microseconds); any other time to the microsecond.
    const fps = H264_FIXTURE.fps;
    expect(imported.json().ranges).toEqual([
      [3 / fps, 17 / fps],
      [17 / fps, 31 / fps],
      [1.234568, 54 / fps],
      [2, 89 / fps],
    ]);
    expect((await call(viewer, 'GET', `${annotations}${uuid}/export/?format=xlsx`)).statusCode).toBe(400);
  });

  it("exports every track of the video as BORIS's aggregated events (TSV)", async () => {
    const response = await call(viewer, 'GET', `${secondVideo}export/?format=boris`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(`${BORIS_COLUMNS.join('\t')}\r\n`);
    const grooming = await createTrack({ name: 'Grooming' }, secondVideo);
    const rearing = await createTrack({ name: 'Rearing' }, secondVideo);
    await call(member, 'PUT', `${secondVideo}${grooming.annotation_config_uuid}/`, {
      ranges: [
        [0.5, 1],
        [2, 2.5],
      ],
      version: 0,
    });
    await call(member, 'PUT', `${secondVideo}${rearing.annotation_config_uuid}/`, { ranges: [[1, 1.75]], version: 0 });
    const boris = await call(viewer, 'GET', `${secondVideo}export/`);
    expect(boris.headers['content-type']).toContain('text/tab-separated-values');
    const [header, ...rows] = boris.body
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split('\t'));
    expect(header).toEqual([
      'Observation id',
      'Observation date',
      'Description',
      'Media file',
      'Total length',
      'FPS',
      'Subject',
      'Behavior',
      'Behavioral category',
      'Modifiers',
      'Behavior type',
      'Start (s)',
      'Stop (s)',
      'Duration (s)',
      'Comment start',
      'Comment stop',
    ]);
    expect(rows.map((row) => [row[7], row[10], row[11], row[12], row[13]])).toEqual([
      ['Grooming', 'STATE', '0.5', '1', '0.5'],
      ['Rearing', 'STATE', '1', '1.75', '0.75'],
      ['Grooming', 'STATE', '2', '2.5', '0.5'],
    ]);
    const row = rows[0]!;
    expect(row[0]).toBe('Day 2');
    expect(row[1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(row[3]).toBe('testsrc-h264.mp4');
    expect(Number(row[4])).toBeCloseTo(H264_FIXTURE.seconds, 2);
    expect(row[5]).toBe(String(H264_FIXTURE.fps));
    expect(row[6]).toMatch(/^M/);
    expect((await call(viewer, 'GET', `${secondVideo}export/?format=csv`)).statusCode).toBe(400);
  });

  it("offers the project's track set and gives it to a video in one click", async () => {
    const presets = await call(viewer, 'GET', `/api/projects/${project.projectUuid}/annotations/presets/`);
    expect(presets.statusCode).toBe(200);
    const tracks = presets.json().tracks as { name: string; hotkey: string | null; video_count: number }[];
    expect(tracks.find((track) => track.name === 'Grooming')).toMatchObject({ hotkey: 'g', video_count: 2 });
    expect(new Set(tracks.map((track) => track.name.toLowerCase())).size).toBe(tracks.length);

    const third = await uploadVideo(t.app, owner, project.videosUrl, videoFixtures().h264Mp4);
    const thirdAnnotations = `${project.videosUrl}${third.json().video_uuid}/annotations/`;
    await createTrack({ name: 'Rearing', hotkey: 'g' }, thirdAnnotations);
    const applied = await call(member, 'POST', `${thirdAnnotations}config/presets/`);
    expect(applied.statusCode, applied.body).toBe(201);
    const created = applied.json() as Track[];
    expect(created.map((track) => track.name).sort()).toEqual(tracks.map((track) => track.name).sort());
    // The video's own Rearing keeps "g", so Grooming comes without a key rather than failing.
    expect(created.find((track) => track.name === 'Grooming')?.hotkey).toBeNull();
    expect(created.find((track) => track.name === 'Rearing')?.hotkey).toBe('g');
    const again = await call(member, 'POST', `${thirdAnnotations}config/presets/`);
    expect(again.json()).toHaveLength(created.length);
  });

  it('adds per-track figures to the project summary, also for a video with tracks and no run', async () => {
    const summary = await call(viewer, 'GET', `/api/projects/${project.projectUuid}/analysis/export/?format=csv`);
    expect(summary.statusCode).toBe(200);
    const [header, ...lines] = summary.body
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    for (const figure of ['bouts', 'total_s', 'mean_s', 'percent']) expect(header).toContain(`Grooming_${figure}`);
    const day2 = lines.find((cells) => cells[2] === 'Day 2')!;
    const cell = (name: string) => day2[header!.indexOf(name)];
    expect(cell('Grooming_bouts')).toBe('2');
    expect(cell('Grooming_total_s')).toBe('1');
    expect(cell('Grooming_mean_s')).toBe('0.5');
    // 1 s of a 3 s video of 90 frames: a frame is 1.1 %, so the percentage is whole (33, not 33.333…).
    expect(cell('Grooming_percent')).toBe(String(Math.round((1 / H264_FIXTURE.seconds) * 100)));
    expect(cell('Rearing_bouts')).toBe('1');
    // Day 2 has no Twitch track: empty, not zero.
    expect(cell('Twitch_bouts')).toBe('');
    expect(cell('analysis_uuid')).toBe('');
  });

  it('deletes a track with its ranges', async () => {
    const track = await createTrack({ name: 'Doomed', hotkey: 'd' });
    const url = `${annotations}config/${track.annotation_config_uuid}/`;
    expect((await call(member, 'DELETE', url)).statusCode).toBe(204);
    expect((await call(viewer, 'GET', `${annotations}${track.annotation_config_uuid}/`)).statusCode).toBe(404);
    expect((await call(member, 'DELETE', url)).statusCode).toBe(404);
    // Its key is free again.
    expect((await createTrack({ name: 'Digging', hotkey: 'd' })).hotkey).toBe('d');
  });

  it('lets viewers read, not write; outsiders and tracks of another video get 404', async () => {
    const [track] = (await call(viewer, 'GET', `${annotations}config/`)).json() as Track[];
    const uuid = track!.annotation_config_uuid;
    expect((await call(viewer, 'PUT', `${annotations}${uuid}/`, { ranges: [], version: 0 })).json()).toEqual({
      errors: 'Viewers have read-only access to this project.',
    });
    expect((await call(viewer, 'POST', `${annotations}config/`, { name: 'Nope' })).statusCode).toBe(403);
    expect((await call(viewer, 'DELETE', `${annotations}config/${uuid}/`)).statusCode).toBe(403);
    for (const url of [`${annotations}config/`, `${annotations}${uuid}/`, `${annotations}export/`]) {
      const response = await call(outsider, 'GET', url);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ errors: 'Not found.' });
    }
    expect((await call(viewer, 'GET', `${secondVideo}${uuid}/`)).statusCode).toBe(404);
    expect((await call(viewer, 'GET', `${annotations}${randomUUID()}/`)).statusCode).toBe(404);
    expect((await call(viewer, 'GET', `${annotations}not-a-uuid/`)).statusCode).toBe(404);
  });
});
