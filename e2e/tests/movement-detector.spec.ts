import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { uploadReadyVideo } from '../support/analysis';
import {
  createProject,
  createSubject,
  createUser,
  expect,
  signIn,
  type TestProject,
  type TestUser,
  test,
} from '../support/fixtures';
import { JUMPS, jumpsVideoPath } from '../support/jumps-video';

test.describe.configure({ mode: 'serial' });

let user: TestUser;
let project: TestProject;
let subjectUuid = '';
let videoUuid = '';

test.beforeAll(async ({ request }) => {
  user = await createUser(request, 'Mona');
  project = await createProject(request, user, 'Movement study');
  subjectUuid = (await createSubject(request, user, project.project_uuid, 'R7')).subject_uuid;
  videoUuid = (await uploadReadyVideo(request, user, project.project_uuid, subjectUuid, jumpsVideoPath(), 'jumps'))
    .videoUuid;
});

/** Waits until the player has the video's first frame and size. */
async function videoLoaded(page: Page) {
  await expect
    .poll(() => page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.readyState))
    .toBeGreaterThanOrEqual(2);
}

test('draw an ROI, preview, run, read the events, seek from them and download the series', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, user, { activeProjectUuid: project.project_uuid });

  // From the video's Detect movement to the detector with that video.
  await page.goto(`/projects/${project.project_uuid}/subjects/${subjectUuid}`);
  await page.getByRole('link', { name: 'Detect movement: jumps' }).click();
  await expect(page).toHaveURL(
    `/projects/${project.project_uuid}/movement-detector?subject=${subjectUuid}&video=${videoUuid}`,
  );
  await expect(page.getByRole('heading', { name: 'Movement Detector' })).toBeVisible();
  await expect(page.getByLabel('Subject', { exact: true })).toHaveValue(subjectUuid);
  await expect(page.getByLabel('Video', { exact: true })).toHaveValue(videoUuid);
  await videoLoaded(page);

  // Draw the ROI over the left part (x 0–200 of 320): from inside the picture to beyond its top-left corner
  // (the drawing is clamped to the picture).
  const overlay = page.getByTestId('roi-overlay');
  const box = (await overlay.boundingBox())!;
  const scale = box.width / JUMPS.width;
  await page.mouse.move(box.x + 200 * scale - 0.25, box.y + box.height - 1);
  await page.mouse.down();
  await page.mouse.move(box.x + 100 * scale, box.y + box.height / 2, { steps: 5 });
  await page.mouse.move(box.x - 20, box.y - 20, { steps: 5 });
  await page.mouse.up();
  await expect(page.getByTestId('active-roi')).toContainText('x 0, y 0, 200 × 240 px');
  await expect(page.getByTestId('roi-active')).toBeVisible();

  // Preview 3 s from the start: the highlighted frame and the window's trace.
  const previewAnswer = page.waitForResponse((r) => r.url().endsWith('/analysis/create-preview/'));
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  expect((await previewAnswer).status()).toBe(200);
  await expect(page.getByTestId('preview-image')).toBeVisible();
  await expect(page.getByTestId('preview-image')).toHaveAttribute('src', /^data:image\/png;base64,/);
  await expect(page.getByTestId('preview-trace').locator('canvas').first()).toBeVisible();
  await expect(page.getByTestId('preview-elapsed')).toContainText(/computed in \d+ ms/);

  // Run with exactly the drawn ROI.
  const created = page.waitForRequest(
    (r) => r.method() === 'POST' && /\/videos\/[^/]+\/analysis\/$/.test(new URL(r.url()).pathname),
  );
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const body = (await created).postDataJSON() as {
    kind: string;
    parameters: { rois: unknown[]; threshold: number; bypass_ranges: unknown[] };
  };
  expect(body.kind).toBe('movement_detection');
  expect(body.parameters.rois).toEqual([{ start_s: 0, ...JUMPS.leftRoi }]);
  expect(body.parameters.threshold).toBe(20);
  expect(body.parameters.bypass_ranges).toEqual([]);

  await expect(page.getByTestId('run-progress').first()).toHaveText('100%', { timeout: 90_000 });
  await expect(page).toHaveURL(/[?&]run=[0-9a-f-]{36}/);
  const runUuid = new URL(page.url()).searchParams.get('run')!;

  // The events are the three jumps, each within a frame.
  const items = page.getByTestId('event-item');
  await expect(items).toHaveCount(JUMPS.jumpTimes.length, { timeout: 20_000 });
  const times = await items.evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('data-time'))));
  for (const [i, expected] of JUMPS.jumpTimes.entries()) {
    expect(Math.abs(times[i]! - expected), `event ${i + 1} at ${times[i]} s`).toBeLessThanOrEqual(1 / JUMPS.fps);
  }
  await expect(page.getByTestId('run-summary')).toContainText('150');
  await expect(page.getByTestId('result-chart').locator('canvas').first()).toBeVisible();

  // Clicking the second event seeks the video there.
  await items.nth(1).click();
  await expect
    .poll(() => page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.currentTime))
    .toBeGreaterThan(2.0 - 1 / JUMPS.fps);
  const seeked = await page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.currentTime);
  expect(Math.abs(seeked - 2.0)).toBeLessThanOrEqual(1 / JUMPS.fps);

  // The chart shows the three events, and clicking it at the last one's time seeks the video there.
  const chart = page.getByTestId('result-chart').getByTestId('series-chart');
  await expect(chart).toHaveAttribute('aria-label', /150 points.*3 events/);
  const plot = page.getByTestId('result-chart').locator('.u-over');
  const plotBox = (await plot.boundingBox())!;
  const lastFrameTime = (JUMPS.frames - 1) / JUMPS.fps;
  const target = JUMPS.jumpTimes[2]!;
  await plot.click({ position: { x: (target / lastFrameTime) * plotBox.width, y: plotBox.height / 2 } });
  await expect
    .poll(() => page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.currentTime))
    .toBeGreaterThan(target - 3 / JUMPS.fps);
  const clicked = await page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.currentTime);
  expect(Math.abs(clicked - target)).toBeLessThanOrEqual(3 / JUMPS.fps);

  // Playing moves the chart's cursor with the video.
  const cursor = page.getByTestId('result-chart').getByTestId('series-chart-cursor');
  await page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => {
    v.currentTime = 0.2;
  });
  const cursorX = async () => (await cursor.boundingBox())?.x ?? Number.NaN;
  await expect.poll(cursorX).toBeLessThan(plotBox.x + plotBox.width * 0.1);
  const before = await cursorX();
  await page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.play());
  await expect.poll(cursorX, { timeout: 5_000 }).toBeGreaterThan(before + plotBox.width * 0.05);
  await page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.pause());

  // The series as CSV: a header and one row per frame.
  const downloadEvent = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Series CSV' }).click();
  const download = await downloadEvent;
  const csv = readFileSync((await download.path())!, 'utf8');
  const lines = csv.split(/\r?\n/).filter((line) => line !== '');
  expect(lines[0]).toBe('frame,time_s,value');
  expect(lines.length - 1).toBe(JUMPS.frames);

  // Reloading keeps the run open: the URL is the state.
  await page.reload();
  await expect(page.getByTestId('event-item')).toHaveCount(JUMPS.jumpTimes.length);
  await expect(page.getByTestId('run-row')).toHaveCount(1);
  expect(new URL(page.url()).searchParams.get('run')).toBe(runUuid);
});

test('a run in the URL with edit=1 loads its parameters without showing its result', async ({ page, request }) => {
  const auth = { Authorization: `Bearer ${user.access}` };
  const response = await request.post(
    `/api/projects/${project.project_uuid}/subjects/${subjectUuid}/videos/${videoUuid}/analysis/`,
    {
      headers: auth,
      data: {
        kind: 'movement_detection',
        parameters: {
          threshold: 33,
          refractory_s: 1.5,
          rois: [
            { start_s: 0, x: 10, y: 20, width: 100, height: 80 },
            { start_s: 2, x: 5, y: 5, width: 50, height: 50 },
          ],
          bypass_ranges: [[3, 4]],
        },
      },
    },
  );
  expect(response.status(), await response.text()).toBe(201);
  const { analysis_uuid } = (await response.json()) as { analysis_uuid: string };

  await signIn(page, user, { activeProjectUuid: project.project_uuid });
  await page.goto(`/movement-detector?subject=${subjectUuid}&video=${videoUuid}&run=${analysis_uuid}&edit=1`);
  await expect(page).toHaveURL(new RegExp(`/projects/${project.project_uuid}/movement-detector\\?`));
  await expect(page.getByLabel('Threshold', { exact: true })).toHaveValue('33');
  await expect(page.getByLabel('Refractory period (s)')).toHaveValue('1.5');
  await expect(page.getByTestId('roi-marker')).toHaveCount(2);
  await expect(page.getByTestId('bypass-span')).toHaveCount(1);
  await expect(page.getByTestId('active-roi')).toContainText('x 10, y 20, 100 × 80 px');
  await expect(page.getByTestId('run-result')).toHaveCount(0);
});

test('each broken bypass CSV shows its message; a good one is counted, shaded, cut at the video’s end and can be cleared', async ({
  page,
}) => {
  await signIn(page, user, { activeProjectUuid: project.project_uuid });
  await page.goto(`/projects/${project.project_uuid}/movement-detector?subject=${subjectUuid}&video=${videoUuid}`);
  // The video opens on its last run (the one above), bypass range included (issue 20): start from none.
  await expect(page.getByTestId('bypass-span')).toHaveCount(1);
  await page.getByRole('button', { name: 'Clear ranges' }).click();
  await expect(page.getByTestId('bypass-span')).toHaveCount(0);
  const input = page.getByLabel('Bypass ranges (CSV)');
  const error = page.getByTestId('bypass-error');
  const choose = (name: string, text: string) =>
    input.setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

  // Spec §5, word for word.
  const cases: [string, string, string][] = [
    ['ranges.txt', '0,1\n', 'File is not a CSV'],
    ['empty.csv', '', 'Could not read the file or file is empty.'],
    ['header.csv', 'start,end\n', 'CSV has no data rows.'],
    ['three.csv', '0,1,2\n', 'Row 1 does not have exactly two values.'],
    ['text.csv', 'start,end\n0,1\n2,abc\n', 'Row 2 contains non-numeric values.'],
    ['backwards.csv', '0,1\n3,2\n', 'Row 2 must have start time less than the end time.'],
    ['overlap.csv', '0,2\n1,3\n', 'Row 2: value 1 is not non-decreasing.'],
  ];
  for (const [name, text, message] of cases) {
    await choose(name, text);
    await expect(error, name).toHaveText(message);
    await expect(page.getByTestId('bypass-span')).toHaveCount(0);
  }

  await choose('bypass.csv', 'start,end\n0.5,1\n2.5,3.25\n');
  await expect(error).toHaveCount(0);
  await expect(page.getByTestId('bypass-summary')).toContainText('2 ranges bypassed (1.25 s)');
  await expect(page.getByTestId('bypass-span')).toHaveCount(2);
  await expect(page.getByTestId('bypass-notices')).toHaveCount(0);

  // A European spreadsheet's file (";" and decimal commas) with a range past the end: cut there, and said so.
  await choose('sleep.csv', 'Start;Ende\n0,5;1\n2;99\n');
  await expect(error).toHaveCount(0);
  await expect(page.getByTestId('bypass-notices')).toHaveText(
    /^Row 2 \(2–99 s\) ends after the video \(([\d.]+) s\): clipped to 2–\1 s\.$/,
  );
  await expect(page.getByTestId('bypass-summary')).not.toContainText('97.5 s');
  await expect(page.getByTestId('bypass-span')).toHaveCount(2);
  await page.getByRole('button', { name: 'Clear ranges' }).click();
  await expect(page.getByTestId('bypass-span')).toHaveCount(0);
  await expect(page.getByTestId('bypass-summary')).toHaveCount(0);
  await expect(page.getByTestId('bypass-notices')).toHaveCount(0);
});

test('empty states lead to Subjects and to the subject page', async ({ page, request }) => {
  const other = await createProject(request, user, 'Empty study');
  await signIn(page, user, { activeProjectUuid: other.project_uuid });
  await page.goto(`/projects/${other.project_uuid}/movement-detector`);
  await expect(page.getByText('No subjects yet')).toBeVisible();
  await page.getByRole('link', { name: 'Go to Subjects' }).click();
  await expect(page).toHaveURL(`/projects/${other.project_uuid}/subjects`);

  const empty = await createSubject(request, user, other.project_uuid, 'E1');
  await page.goto(`/projects/${other.project_uuid}/movement-detector`);
  await page.getByLabel('Subject', { exact: true }).selectOption({ label: 'E1 (control)' });
  await expect(page).toHaveURL(new RegExp(`\\?subject=${empty.subject_uuid}$`));
  await expect(page.getByText('No videos for E1')).toBeVisible();
  await page.getByRole('link', { name: 'Upload a video' }).click();
  await expect(page).toHaveURL(`/projects/${other.project_uuid}/subjects/${empty.subject_uuid}`);
});
