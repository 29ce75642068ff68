import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject, uploadVideo } from '../../../test/factories-videos.js';
import { analysisFixtures, JUMPS_FIXTURE } from '../../../test/fixtures/videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';

/**
 * Bypass ranges (issue 20): a range past the video's end is cut there and the answer says so; time-range files may be
 * ";"-separated with decimal commas; the spec's messages stay word for word.
 */
describe('bypass ranges past the end of the video', () => {
  let t: TestApp;
  let owner: TestUser;
  let analysisUrl: string;
  let videoUrl: string;
  let duration: number;
  const J = JUMPS_FIXTURE;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx);
    const project = await createProjectWithSubject(t.ctx, owner);
    const uploaded = await uploadVideo(t.app, owner, project.videosUrl, analysisFixtures().jumpsMp4);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    duration = uploaded.json().duration_s;
    videoUrl = `${project.videosUrl}${uploaded.json().video_uuid}/`;
    analysisUrl = `${videoUrl}analysis/`;
  }, 60_000);

  afterAll(() => t?.close());

  const parameters = {
    rois: [{ start_s: 0, ...J.leftRoi }],
    bypass_ranges: [
      [1, 2],
      [4, 9],
      [12, 15],
    ],
  };

  it('cuts them at the end, leaves out those after it, and says so in the answer', async () => {
    expect(duration).toBe(5);
    const notices = [
      'Row 2 (4–9 s) ends after the video (5 s): clipped to 4–5 s.',
      'Row 3 (12–15 s) starts at or after the end of the video (5 s): left out.',
    ];
    const created = await t.app.inject({
      method: 'POST',
      url: analysisUrl,
      headers: owner.headers,
      payload: { kind: 'movement_detection', parameters },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().parameters.bypass_ranges).toEqual([
      [1, 2],
      [4, 5],
    ]);
    expect(created.json().notices).toEqual(notices);
    // The run keeps the ranges it used.
    const stored = await t.app.inject({
      method: 'GET',
      url: `${analysisUrl}${created.json().analysis_uuid}/`,
      headers: owner.headers,
    });
    expect(stored.json().parameters.bypass_ranges).toEqual([
      [1, 2],
      [4, 5],
    ]);

    const preview = await t.app.inject({
      method: 'POST',
      url: `${analysisUrl}create-preview/`,
      headers: owner.headers,
      payload: { parameters, start_s: 3.5, length_s: 1.5 },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().notices).toEqual(notices);
    // Frames from 4 s on are bypassed: no values.
    const { frames, values } = preview.json() as { frames: number[]; values: (number | null)[] };
    expect(frames.filter((frame, i) => frame >= 4 * J.fps && values[i] !== null)).toEqual([]);

    // Ranges inside the video: nothing to say.
    const inside = await t.app.inject({
      method: 'POST',
      url: analysisUrl,
      headers: owner.headers,
      payload: { kind: 'movement_detection', parameters: { ...parameters, bypass_ranges: [[1, 2]] } },
    });
    expect(inside.json().notices).toEqual([]);
  });

  it("keeps the spec's messages for broken ranges", async () => {
    const broken = await t.app.inject({
      method: 'POST',
      url: analysisUrl,
      headers: owner.headers,
      payload: {
        kind: 'movement_detection',
        parameters: {
          ...parameters,
          bypass_ranges: [
            [0, 1],
            [3, 2],
          ],
        },
      },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().errors['parameters.bypass_ranges']).toEqual([
      'Row 2 must have start time less than the end time.',
    ]);
  });

  it('reads time-range files separated by ";" with decimal commas, as European spreadsheets save them', async () => {
    const track = await t.app.inject({
      method: 'POST',
      url: `${videoUrl}annotations/config/`,
      headers: owner.headers,
      payload: { name: 'Sleep' },
    });
    const upload = (content: string) => {
      const boundary = `----csv${randomUUID().replace(/-/g, '')}`;
      return t.app.inject({
        method: 'POST',
        url: `${videoUrl}annotations/${track.json().annotation_config_uuid}/import/`,
        headers: { ...owner.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload:
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="sleep.csv"\r\n` +
          `Content-Type: text/csv\r\n\r\n${content}\r\n--${boundary}--\r\n`,
      });
    };
    const imported = await upload('Start;Ende\r\n0,5;1,25\r\n2;3,5\r\n');
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json().ranges).toEqual([
      [0.5, 1.25],
      [2, 3.5],
    ]);
    // The spec's messages, word for word, name the same rows.
    const broken = await upload('0,5;1\r\n2;x\r\n');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ errors: { file: ['Row 2 contains non-numeric values.'] } });
    const order = await upload('0;2\r\n1,5;3\r\n');
    expect(order.json()).toEqual({ errors: { file: ['Row 2: value 1.5 is not non-decreasing.'] } });
  });
});
