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
import { MOVING_SQUARE, movingSquareVideoPath } from '../support/location-video';

let user: TestUser;
let project: TestProject;
let subjectUuid = '';
let videoUuid = '';

test.beforeAll(async ({ request }) => {
  user = await createUser(request, 'Lena');
  project = await createProject(request, user, 'Open field');
  subjectUuid = (await createSubject(request, user, project.project_uuid, 'M3')).subject_uuid;
  videoUuid = (
    await uploadReadyVideo(request, user, project.project_uuid, subjectUuid, movingSquareVideoPath(), 'square')
  ).videoUuid;
});

async function videoLoaded(page: Page) {
  await expect
    .poll(() => page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.readyState))
    .toBeGreaterThanOrEqual(2);
}

test('draw two zones and a scale, preview, run, read the zone and bin tables, see the point on the player, download the series', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // Tall enough for the whole picture: drawing needs it on screen.
  await page.setViewportSize({ width: 1280, height: 1000 });
  await signIn(page, user, { activeProjectUuid: project.project_uuid });

  // From the sidebar, then the subject and the video.
  await page.goto(`/projects/${project.project_uuid}`);
  await page.getByRole('link', { name: 'Location Tracker' }).click();
  await expect(page.getByRole('heading', { name: 'Location Tracker' })).toBeVisible();
  await page.getByLabel('Subject', { exact: true }).selectOption(subjectUuid);
  await page.getByLabel('Video', { exact: true }).selectOption(videoUuid);
  await videoLoaded(page);

  const canvas = page.getByTestId('zone-canvas');
  /** Screen position of a point in video pixels, measured afresh (typing in a field may scroll the page). */
  const at = async (x: number, y: number) => {
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    return [box.x + (x * box.width) / MOVING_SQUARE.width, box.y + (y * box.height) / MOVING_SQUARE.height] as const;
  };
  const clickAt = async (x: number, y: number) => page.mouse.click(...(await at(x, y)));

  // Left by polygon clicks, closed with Enter (the picture's rounded corners take no clicks: 10 px in).
  await page.getByRole('button', { name: 'Polygon' }).click();
  await clickAt(10, 10);
  await clickAt(159, 10);
  await clickAt(159, 230);
  await clickAt(10, 230);
  await page.keyboard.press('Enter');
  // Right half as a rectangle dragged past the picture's corner (clamped to it).
  await page.getByRole('button', { name: 'Rectangle' }).click();
  await page.mouse.move(...(await at(161, 1)));
  await page.mouse.down();
  await page.mouse.move(...(await at(240, 120)), { steps: 4 });
  await page.mouse.move(...(await at(340, 260)), { steps: 4 });
  await page.mouse.up();
  await expect(page.getByTestId('zone-shape')).toHaveCount(2);

  await page.getByLabel('Name of zone 1').fill('Left');
  await page.getByLabel('Name of zone 2').fill('left');
  await expect(page.getByText('Another zone is already named “left”.')).toBeVisible();
  await page.getByLabel('Name of zone 2').fill('Right');

  // A scale line across the picture's width: 300 px = 30 cm.
  await page.getByRole('button', { name: 'Scale line' }).click();
  await clickAt(10, 225);
  await clickAt(310, 225);
  await expect(page.getByTestId('scale-pixels')).toHaveText(/^Line of (299|300)\.\d px$/);
  await page.getByLabel('True length').fill('30');
  await page.getByLabel('Unit').selectOption('cm');

  await page.screenshot({ path: test.info().outputPath('location-tracker-zones.png'), fullPage: true });

  // Preview 3 s from the player's frame: the picture with the zones and the point, and a few positions on the square.
  const previewOnce = async () => {
    const answer = page.waitForResponse((r) => r.url().endsWith('/analysis/create-preview/'));
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const response = await answer;
    expect(response.status()).toBe(200);
    expect(response.request().postDataJSON()).toMatchObject({ kind: 'location_tracking', start_s: 0, length_s: 3 });
    return response.json() as Promise<{ frames: number[]; x: (number | null)[] }>;
  };
  const first = await previewOnce();
  expect(first.frames).toHaveLength(MOVING_SQUARE.fps * 3);
  await expect(page.getByTestId('preview-image')).toHaveAttribute('src', /^data:image\/png;base64,/);
  await expect(page.getByTestId('preview-elapsed')).toContainText(/90 of 90 frames tracked .*computed and kept/);
  const rows = page.getByTestId('preview-positions').locator('tbody tr');
  await expect(rows).toHaveCount(8);
  await expect(rows.first().getByRole('cell')).toHaveText(['0', /^0:00/, /^\d+\.\d$/, /^\d+\.\d$/]);
  // Other zones: the same reference, read back.
  await page.getByLabel('Name of zone 2').fill('East');
  await previewOnce();
  await expect(page.getByTestId('preview-elapsed')).toContainText(/reference reused/);
  await page.getByLabel('Name of zone 2').fill('Right');
  await page.getByTestId('preview-image').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('location-tracker-preview.png'), fullPage: true });

  // The reference choices: an empty-arena video of the project (none of this size here), or chosen frames.
  const reference = page.getByTestId('reference-choice');
  await reference.getByLabel('An empty-arena video').check();
  await expect(reference.getByLabel('Empty-arena video', { exact: true })).toBeVisible();
  await reference.getByLabel('Frames I choose').check();
  await reference.getByRole('button', { name: 'Add this frame' }).click();
  await expect(reference.getByLabel('Reference frames of this video')).toHaveValue('0');
  await reference.getByLabel('Reference frames of this video').fill('0, 30, 60, 90');
  const chosen = page.waitForResponse((r) => r.url().endsWith('/analysis/create-preview/'));
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  const chosenAnswer = await chosen;
  expect(chosenAnswer.request().postDataJSON().parameters.reference).toEqual({ frames: [0, 30, 60, 90] });
  expect(chosenAnswer.status()).toBe(200);
  await expect(page.getByTestId('preview-elapsed')).toContainText(/computed and kept/);
  await reference.getByLabel('Frames spread over this video').check();
  // Two-second bins: frames 0–59 and 60–119.
  await page.getByLabel('Bin length (s)').fill('2');

  const created = page.waitForRequest(
    (r) => r.method() === 'POST' && /\/videos\/[^/]+\/analysis\/$/.test(new URL(r.url()).pathname),
  );
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const body = (await created).postDataJSON() as { kind: string; parameters: Record<string, unknown> };
  expect(body.kind).toBe('location_tracking');
  // The default tracker: the body's centre, on the default reference.
  expect(body.parameters.algorithm).toBe('body_core');
  expect(body.parameters.reference).toBeNull();
  // What was drawn, in video pixels (a screen pixel is less than one video pixel here: within 1 px).
  const zones = body.parameters.zones as { name: string; points: [number, number][] }[];
  const near = (points: [number, number][], expected: [number, number][]) =>
    points.length === expected.length &&
    points.every(([x, y], i) => Math.abs(x - expected[i]![0]) <= 1 && Math.abs(y - expected[i]![1]) <= 1);
  expect(zones.map((zone) => zone.name)).toEqual(['Left', 'Right']);
  expect(
    near(zones[0]!.points, [
      [10, 10],
      [159, 10],
      [159, 230],
      [10, 230],
    ]),
    JSON.stringify(zones[0]),
  ).toBe(true);
  // The rectangle's far corner was dragged beyond the picture: clamped to (320, 240).
  expect(
    near(zones[1]!.points, [
      [161, 1],
      [320, 1],
      [320, 240],
      [161, 240],
    ]),
    JSON.stringify(zones[1]),
  ).toBe(true);
  const sent = body.parameters.scale as {
    px_distance: number;
    true_distance: number;
    unit: string;
    line: [number, number][];
  };
  expect(Math.abs(sent.px_distance - 300)).toBeLessThanOrEqual(1);
  expect(sent).toMatchObject({ true_distance: 30, unit: 'cm' });
  // The line itself goes with the run, so it can be drawn again.
  expect(
    near(sent.line, [
      [10, 225],
      [310, 225],
    ]),
    JSON.stringify(sent.line),
  ).toBe(true);

  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 120_000 });
  for (const [name, truth] of Object.entries(MOVING_SQUARE.zones)) {
    const cells = page.getByTestId('zone-result-row').filter({ hasText: name }).getByRole('cell');
    await expect(cells).toHaveText([
      name,
      String(truth.time_s),
      String(truth.percent),
      String(truth.entries),
      String(truth.latency_s),
      /^\d+(\.\d+)?$/,
    ]);
  }
  await expect(page.getByTestId('distance-chart').locator('canvas').first()).toBeVisible();
  // The bins table: Left holds frames 0–35 of the first bin (1.2 s, entered once) and frames 72–119 of the second
  // (1.6 s, entered once more); Right frames 36–59 (0.8 s) and 60–71 (0.4 s, no new entry: it was already in).
  await expect(page.getByTestId('bin-row')).toHaveCount(2);
  await expect(page.getByTestId('bin-row').nth(0).getByRole('cell')).toHaveText([
    '0:00:00.000–0:00:02.000',
    '60',
    /^\d+(\.\d+)?$/,
    '1.2 · 1',
    '0.8 · 1',
  ]);
  await expect(page.getByTestId('bin-row').nth(1).getByRole('cell')).toHaveText([
    '0:00:02.000–0:00:04.000',
    '60',
    /^\d+(\.\d+)?$/,
    '1.6 · 1',
    '0.4 · 0',
  ]);

  // Jumps: the square leaps across the arena at frames 36 and 72, far more than its body length; a click shows one.
  const jumpRows = page.getByTestId('jump-row');
  await expect(jumpRows).toHaveCount(2);
  await expect(jumpRows.nth(0)).toHaveAttribute('data-frame', '36');
  await expect(jumpRows.nth(1)).toHaveAttribute('data-frame', '72');
  await page.getByRole('button', { name: 'Show frame 72' }).click();
  await expect(page.getByTestId('player-frame')).toHaveText('frame 72');
  await expect(
    page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => Math.floor(v.currentTime * 30)),
  ).resolves.toBe(72);
  // The player draws the tracked point there: the square's centre in frame 72 is (35, 195) in video pixels.
  await expect(page.getByTestId('track-trail')).toHaveAttribute('data-frame', '72');
  const point = page.getByTestId('track-point');
  await expect(point).toBeVisible();
  expect(Math.abs(Number(await point.getAttribute('cx')) - 35)).toBeLessThanOrEqual(1.5);
  expect(Math.abs(Number(await point.getAttribute('cy')) - 195)).toBeLessThanOrEqual(1.5);
  // While it plays, the point moves on with the video and a trail follows it.
  await page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.play());
  await expect
    .poll(async () => Number(await page.getByTestId('track-trail').getAttribute('data-frame')), { timeout: 10_000 })
    .toBeGreaterThan(76);
  await page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.pause());
  await expect(page.getByTestId('track-trail').locator('polyline')).toHaveCount(1);
  await page.screenshot({ path: test.info().outputPath('location-tracker-result.png'), fullPage: true });

  // The series: frame, time, position, distance in px and cm, one 0/1 column per zone.
  const downloadEvent = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Series CSV' }).click();
  const csv = readFileSync((await (await downloadEvent).path())!, 'utf8');
  const lines = csv.split(/\r?\n/).filter((line) => line !== '');
  expect(lines[0]).toBe('frame,time_s,x,y,distance_px,distance_cm,Left,Right');
  expect(lines.length - 1).toBe(MOVING_SQUARE.fps * MOVING_SQUARE.seconds);
  const inLeft = lines.slice(1).filter((line) => line.split(',')[6] === '1').length;
  expect(inLeft).toBe(84);

  // The figures: shown from their SVG, and downloaded as PNG (the video's size) and SVG (named zones, scale bar).
  for (const name of ['track', 'heatmap']) {
    const figure = page.getByTestId(`figure-${name}`);
    await expect
      .poll(() => figure.getByRole('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(MOVING_SQUARE.width);
    const pngDownload = page.waitForEvent('download');
    await figure.getByRole('button', { name: 'Download PNG' }).click();
    const png = readFileSync((await (await pngDownload).path())!);
    expect((await pngDownload).suggestedFilename()).toMatch(new RegExp(`^M3_square_location-[\\d-]+_${name}\\.png$`));
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([MOVING_SQUARE.width, MOVING_SQUARE.height]);
    const svgDownload = page.waitForEvent('download');
    await figure.getByRole('button', { name: 'Download SVG' }).click();
    expect((await svgDownload).suggestedFilename()).toMatch(new RegExp(`_${name}\\.svg$`));
    const svg = readFileSync((await (await svgDownload).path())!, 'utf8');
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        zones: [...doc.querySelectorAll('g.zone')].map((zone) => zone.getAttribute('data-name')),
        scaleBar: doc.getElementById('scale-bar')?.getAttribute('data-unit') ?? null,
        width: doc.documentElement.getAttribute('width'),
      };
    }, svg);
    expect(parsed).toEqual({
      error: null,
      zones: ['Left', 'Right'],
      scaleBar: 'cm',
      width: String(MOVING_SQUARE.width),
    });
  }
  await page.getByTestId('figure-track').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('location-tracker-figures.png') });

  // Reloading keeps the run open, and its zones come back into the editor.
  await page.reload();
  await expect(page.getByTestId('zone-result-row')).toHaveCount(2);
  await expect(page.getByTestId('zone-shape')).toHaveCount(2);
  // The scale line comes back where it was drawn, not as a stand-in across the middle of the picture.
  const line = page.getByTestId('scale-line').locator('line').first();
  const ends = async () =>
    Promise.all(['x1', 'y1', 'x2', 'y2'].map(async (name) => Number(await line.getAttribute(name))));
  await expect
    .poll(async () => near([(await ends()).slice(0, 2), (await ends()).slice(2)] as [number, number][], sent.line))
    .toBe(true);
});
