import { readFileSync } from 'node:fs';
import type { Download, Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { finishedRun, startRun, uploadReadyVideo, type VideoPlace } from '../support/analysis';
import { createProject, createUser, expect, signIn, type TestProject, type TestUser, test } from '../support/fixtures';
import { JUMPS, jumpsVideoPath } from '../support/jumps-video';

/**
 * A whole experiment (issue 23): a run's settings saved as a protocol, a batch over a subject group with one video's
 * geometry moved, followed to its end, its group table and plot read, its results downloaded and checked.
 */
test.describe.configure({ mode: 'serial' });

let user: TestUser;
let project: TestProject;
let control1: VideoPlace;
let control2: VideoPlace;
let runUuid = '';
let protocolUuid = '';
let batchUuid = '';
/** C2's detected events with its ROI moved, read from the CSV: the group mean is worked from it. */
let movedEvents = 0;

/** Where the ROI covers only the left square's jumps (x 0–200): three events, at 1.0, 2.0 and 3.5 s. */
const PROTOCOL_NAME = 'Jumps, left half';

async function subject(request: Parameters<typeof createUser>[0], name: string, group: string) {
  const response = await request.post(`/api/projects/${project.project_uuid}/subjects/`, {
    headers: { Authorization: `Bearer ${user.access}` },
    data: { name, group },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { subject_uuid: string }).subject_uuid;
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  user = await createUser(request, 'Eva');
  project = await createProject(request, user, 'Jumping experiment');
  const file = jumpsVideoPath();
  const id = project.project_uuid;
  control1 = await uploadReadyVideo(request, user, id, await subject(request, 'C1', 'control'), file, 'C1 day 1');
  control2 = await uploadReadyVideo(request, user, id, await subject(request, 'C2', 'control'), file, 'C2 day 1');
  // A subject of another group: the batch over "control" leaves it out.
  await uploadReadyVideo(request, user, id, await subject(request, 'T1', 'treated'), file, 'T1 day 1');
  const run = await startRun(request, user, control1, {
    kind: 'movement_detection',
    parameters: { rois: [{ start_s: 0, ...JUMPS.leftRoi }] },
  });
  expect((await finishedRun(request, user, control1, run.analysis_uuid)).status).toBe('succeeded');
  runUuid = run.analysis_uuid;
});

async function openDetector(page: Page, place: VideoPlace, analysisUuid: string) {
  await signIn(page, user, { activeProjectUuid: project.project_uuid });
  await page.goto(
    `/projects/${project.project_uuid}/movement-detector?subject=${place.subjectUuid}&video=${place.videoUuid}&run=${analysisUuid}`,
  );
}

test('a run’s settings are saved as a protocol, whose link in the toast opens it', async ({ page }) => {
  await openDetector(page, control1, runUuid);
  const result = page.getByTestId('run-result');
  await expect(result.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
  await result.getByRole('button', { name: 'Save this run’s settings as protocol' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save as protocol' });
  await dialog.getByLabel('Protocol name').fill(PROTOCOL_NAME);
  const saved = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/protocols/'));
  await dialog.getByRole('button', { name: 'Save protocol' }).click();
  const answer = await saved;
  expect(answer.status()).toBe(201);
  const body = (await answer.json()) as { protocol_uuid: string; parameters: { rois: unknown[] } };
  protocolUuid = body.protocol_uuid;
  expect(body.parameters.rois).toEqual([{ start_s: 0, ...JUMPS.leftRoi }]);

  await page.getByTestId('protocol-link').click();
  await expect(page).toHaveURL(`/projects/${project.project_uuid}/protocols/${protocolUuid}`);
  await expect(page.getByTestId('protocol-title')).toHaveText(PROTOCOL_NAME);
  await expect(page.getByTestId('protocol-current-version')).toHaveText('v1');
  await expect(page.getByTestId('protocol-parameters').locator('[data-key="rois"]')).toHaveText(
    'From 0 s: 200×240 px at (0, 0)',
  );
});

test('a batch over a subject group, one video’s ROI moved on its frame, runs to the end', async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page, user, { activeProjectUuid: project.project_uuid });
  await page.goto(`/projects/${project.project_uuid}/protocols/${protocolUuid}`);
  await page.getByRole('link', { name: 'Run on many videos' }).click();
  await expect(page.getByRole('heading', { name: 'Run on many videos' })).toBeVisible();

  await page.getByLabel('The videos of a subject group').check();
  await page.getByLabel('Group', { exact: true }).selectOption('control');
  await expect(page.getByTestId('matched-count')).toHaveText('2 videos match');
  const rows = page.getByTestId('batch-video-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('C1');
  await expect(rows.nth(1)).toContainText('C2');

  // C2's camera "moved": its ROI goes 100 px right, onto the sliding square as well.
  await page.getByRole('button', { name: 'Adjust C2 / C2 day 1' }).click();
  const adjuster = page.getByTestId('video-adjuster');
  await expect(adjuster.getByTestId('video-element')).toBeVisible();
  const overlay = adjuster.getByTestId('geometry-overlay');
  await expect(overlay.getByTestId('roi-active')).toBeVisible();
  // Dragged from the middle of the ROI by 60 video pixels, then set to 100 exactly with the numbers.
  await overlay.scrollIntoViewIfNeeded();
  const box = (await overlay.boundingBox())!;
  const scale = box.width / JUMPS.width;
  await page.mouse.move(box.x + 100 * scale, box.y + 120 * scale);
  await page.mouse.down();
  await page.mouse.move(box.x + 160 * scale, box.y + 120 * scale, { steps: 6 });
  await page.mouse.up();
  await expect.poll(async () => Number(await overlay.getAttribute('data-dx'))).toBeGreaterThan(50);
  await adjuster.getByLabel('Right (px)').fill('100');
  await adjuster.getByLabel('Down (px)').fill('0');
  await expect(overlay).toHaveAttribute('data-dx', '100');
  await expect(rows.nth(1).getByTestId('row-adjustment')).toHaveText('moved 100, 0 px');

  // Checked before Start: the server moves the ROI exactly as the page drew it, and nothing is made yet.
  const checked = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/batches/check/'));
  await page.getByTestId('check-batch').click();
  const check = (await (await checked).json()) as { runs: { video_uuid: string; parameters: { rois: unknown } }[] };
  await expect(page.getByTestId('batch-checked')).toHaveText('All 2 videos can run as set.');
  expect(check.runs.find((run) => run.video_uuid === control2.videoUuid)?.parameters.rois).toEqual([
    { start_s: 0, x: 100, y: 0, width: 200, height: 240 },
  ]);
  expect(check.runs.find((run) => run.video_uuid === control1.videoUuid)?.parameters.rois).toEqual([
    { start_s: 0, ...JUMPS.leftRoi },
  ]);

  const created = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/batches/'));
  await page.getByTestId('start-batch').click();
  const request = (await created).postDataJSON() as Record<string, unknown>;
  expect(request).toEqual({
    protocol_uuid: protocolUuid,
    protocol_version: 1,
    group: 'control',
    overrides: { [control2.videoUuid]: { geometry: { dx: 100, dy: 0, scale: 1, origin: [100, 120] } } },
  });
  await expect(page).toHaveURL(new RegExp(`/projects/${project.project_uuid}/batches/[0-9a-f-]+$`));
  batchUuid = page.url().split('/').pop()!;

  // The page follows the batch: each video's status, then the whole batch finished.
  const progress = page.getByTestId('batch-progress');
  await expect(progress).toHaveAttribute('data-status', 'finished', { timeout: 120_000 });
  await expect(page.getByTestId('batch-counts')).toHaveText('2 of 2 finished');
  await expect(page.getByTestId('batch-percent')).toHaveText('100%');
  const runs = page.getByTestId('batch-run-row');
  await expect(runs).toHaveCount(2);
  for (const row of await runs.all())
    await expect(row.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
  await expect(runs.nth(1)).toContainText('moved 100, 0 px');
  await expect(page.getByTestId('batch-failures')).toHaveCount(0);
});

/** A download's file as text. */
async function text(download: Download) {
  return readFileSync((await download.path())!, 'utf8');
}

/** A CSV of plain cells (no quotes in these names) as objects by header. */
function rowsOf(csv: string): Record<string, string>[] {
  const [header, ...lines] = csv.split(/\r?\n/).filter((line) => line !== '');
  const names = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [names[i], cell])));
}

test('the results table, the group table and plot, and the CSV and XLSX downloads', async ({ page, request }) => {
  test.setTimeout(90_000);
  // The moved ROI reached C2's run: x 100 instead of 0.
  const c2Run = await request.get(`/api/projects/${project.project_uuid}/batches/${batchUuid}/`, {
    headers: { Authorization: `Bearer ${user.access}` },
  });
  const detail = (await c2Run.json()) as { runs: { video_uuid: string; analysis_uuid: string }[] };
  const c2 = detail.runs.find((run) => run.video_uuid === control2.videoUuid)!;
  const c2Answer = await request.get(
    `/api/projects/${project.project_uuid}/subjects/${control2.subjectUuid}/videos/${control2.videoUuid}/analysis/${c2.analysis_uuid}/`,
    { headers: { Authorization: `Bearer ${user.access}` } },
  );
  const c2Parameters = ((await c2Answer.json()) as { parameters: { rois: { x: number }[] } }).parameters;
  expect(c2Parameters.rois[0]!.x).toBe(100);

  await signIn(page, user, { activeProjectUuid: project.project_uuid });
  await page.goto(`/projects/${project.project_uuid}/batches/${batchUuid}`);
  const results = page.getByTestId('results-section');
  const rows = results.getByTestId('result-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).getByTestId('result-subject')).toHaveText('C1');
  await expect(rows.nth(0).getByTestId('result-detected_events')).toHaveText(String(JUMPS.jumpTimes.length));
  await expect(rows.nth(1).getByTestId('result-subject')).toHaveText('C2');

  // The results as CSV, wide: a row per run, the known count on C1's.
  const wideCsv = page.waitForEvent('download');
  await results.getByRole('button', { name: 'CSV wide' }).click();
  const wide = rowsOf(await text(await wideCsv));
  expect(wide.map((row) => row.subject)).toEqual(['C1', 'C2']);
  expect(wide.map((row) => row.group)).toEqual(['control', 'control']);
  expect(wide[0]!.detected_events).toBe(String(JUMPS.jumpTimes.length));
  movedEvents = Number(wide[1]!.detected_events);
  expect(Number.isInteger(movedEvents)).toBe(true);
  await expect(rows.nth(1).getByTestId('result-detected_events')).toHaveText(String(movedEvents));

  // Long: a row per run × measure.
  const longCsv = page.waitForEvent('download');
  await results.getByRole('button', { name: 'CSV long' }).click();
  const long = rowsOf(await text(await longCsv));
  const c1Events = long.find((row) => row.subject === 'C1' && row.measure === 'detected_events');
  expect(c1Events?.value).toBe(String(JUMPS.jumpTimes.length));
  expect(long.length % 2).toBe(0);
  expect(new Set(long.map((row) => row.subject))).toEqual(new Set(['C1', 'C2']));

  // XLSX, wide: the same rows and the same known value.
  const xlsxDownload = page.waitForEvent('download');
  await results.getByRole('button', { name: 'XLSX wide' }).click();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile((await (await xlsxDownload).path())!);
  const sheet = workbook.worksheets[0]!;
  const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const cellOf = (row: number, name: string) => sheet.getRow(row).getCell(header.indexOf(name) + 1).value;
  expect(sheet.actualRowCount).toBe(3);
  expect(cellOf(2, 'subject')).toBe('C1');
  expect(cellOf(2, 'detected_events')).toBe(JUMPS.jumpTimes.length);
  expect(cellOf(3, 'detected_events')).toBe(movedEvents);

  // The group table of detected events: control, n 2, the mean of the two runs.
  const statistics = page.getByTestId('statistics-section');
  await statistics.getByLabel('Measure').selectOption('detected_events');
  const control = statistics.getByTestId('descriptives-row').filter({ hasText: 'control' });
  await expect(control.getByTestId('stat-n')).toHaveText('2');
  const mean = (JUMPS.jumpTimes.length + movedEvents) / 2;
  await expect(control.getByTestId('stat-mean')).toHaveText(String(Number(mean.toPrecision(4))));
  await expect(control.getByTestId('stat-median')).toHaveText(String(Number(mean.toPrecision(4))));
  // One group: nothing to compare.
  await expect(statistics.getByText('One group: there is nothing to compare.')).toBeVisible();

  // The group tables as files: each as CSV, both as the sheets of one workbook.
  const descriptivesCsv = page.waitForEvent('download');
  await statistics.getByRole('button', { name: 'Descriptives CSV' }).click();
  const descriptives = rowsOf(await text(await descriptivesCsv));
  const controlEvents = descriptives.find((row) => row.measure === 'detected_events' && row.group === 'control');
  expect(controlEvents?.n).toBe('2');
  expect(Number(controlEvents?.mean)).toBeCloseTo(mean, 9);
  const testsCsv = page.waitForEvent('download');
  await statistics.getByRole('button', { name: 'Tests CSV' }).click();
  expect((await text(await testsCsv)).split(/\r?\n/)[0]).toBe(
    'measure,unit,test,statistic_name,statistic,df1,df2,p,note',
  );
  const statisticsXlsx = page.waitForEvent('download');
  await statistics.getByRole('button', { name: 'XLSX', exact: true }).click();
  const statisticsBook = new ExcelJS.Workbook();
  await statisticsBook.xlsx.readFile((await (await statisticsXlsx).path())!);
  expect(statisticsBook.worksheets.map((sheet) => sheet.name)).toEqual(['descriptives', 'tests']);

  // The plot of that measure, drawn by the server, and its SVG download.
  const plot = statistics.getByTestId('statistics-plot').getByRole('img');
  await expect(plot).toBeVisible();
  await expect.poll(() => plot.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
  const svgDownload = page.waitForEvent('download');
  await statistics.getByRole('button', { name: 'Download SVG' }).click();
  const svg = await text(await svgDownload);
  expect(svg.startsWith('<svg') || svg.startsWith('<?xml')).toBe(true);
  expect(svg).toContain('control');
});
