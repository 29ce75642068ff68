import path from 'node:path';
import { uploadReadyVideo, type VideoPlace } from '../support/analysis';
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
import { atFrame, OBJECT_SCENE, objectSceneConfig, objectSceneCsv, videoLoaded } from '../support/pose';
import { CODED, codedVideoPath } from '../support/quick-score';

/** Pictures of the new screens for the docs, as scorers.spec.ts writes its own. */
const SCREENSHOTS = path.resolve(import.meta.dirname, '../../docs/screenshots');

let user: TestUser;
let project: TestProject;
let place: VideoPlace;

test.beforeAll(async ({ request }) => {
  user = await createUser(request, 'Ines');
  project = await createProject(request, user, 'Novel object study');
  const subjectUuid = (await createSubject(request, user, project.project_uuid, 'M9')).subject_uuid;
  place = await uploadReadyVideo(request, user, project.project_uuid, subjectUuid, codedVideoPath(), 'object');
});

test('import with a skeleton, see it drawn, derive series, detect events for Quick Score, zone by the nose, fill a track', async ({
  page,
  request,
  allowConsole,
}) => {
  test.setTimeout(300_000);
  // The refused import below is a 400 the page logs.
  allowConsole(/status of 400 \(Bad Request\) \(http:\/\/localhost:\d+\/api\/projects\/[^)]+\/pose\/\)/);
  allowConsole(/ApiError: POST \/api\/projects\/[^ ]+\/pose\/ → 400/);
  await page.setViewportSize({ width: 1400, height: 1000 });
  await signIn(page, user, { activeProjectUuid: project.project_uuid });
  const query = `subject=${place.subjectUuid}&video=${place.videoUuid}`;

  // The subject's page: the video's menu imports a pose file; a skeleton naming a part the file lacks is refused
  // under its field, and the right one is taken.
  await page.goto(`/projects/${place.projectUuid}/subjects/${place.subjectUuid}`);
  await page.getByRole('button', { name: 'Actions for object' }).click();
  await page.getByRole('menuitem', { name: 'Import pose file' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import pose file' });
  await dialog
    .getByLabel('Pose file')
    .setInputFiles({ name: 'object.csv', mimeType: 'text/csv', buffer: objectSceneCsv() });
  await dialog.getByLabel('Name').fill('DLC object');
  const config = (skeleton?: [string, string][]) => ({
    name: 'config.yaml',
    mimeType: 'application/yaml',
    buffer: objectSceneConfig(skeleton),
  });
  await dialog.getByLabel('DeepLabCut config.yaml').setInputFiles(config([['nose', 'tailbase']]));
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(
    dialog.getByText(/Edge 1 of "skeleton" names "tailbase", which the pose file does not have/),
  ).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'pose-import.png') });
  await dialog.getByLabel('DeepLabCut config.yaml').setInputFiles(config());
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog).toBeHidden();

  // The video opened with its sets listed (1 edge) and the skeleton drawn: at frame 330 the nose visits the object.
  const row = page.getByTestId('pose-set-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('DLC object');
  await expect(row).toContainText('1 edge');
  await videoLoaded(page);
  await expect(page.getByTestId('pose-panel')).not.toContainText('points only');
  await page.getByRole('application', { name: /Player/ }).focus();
  for (let i = 0; i < 11; i++) await page.keyboard.press('Shift+ArrowRight');
  await atFrame(page, 330);
  const edge = page.getByTestId('pose-edge');
  await expect(edge).toHaveCount(1);
  await expect(edge).toHaveAttribute('data-from', 'nose');
  await expect(edge).toHaveAttribute('data-to', 'tail');
  const nose = page.locator('[data-testid="pose-point"][data-part="nose"]');
  await expect(nose).toHaveAttribute('cx', '240');
  // The exports: the tidy CSV, one row per point present.
  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Tidy CSV of DLC object' }).click();
  const tidy = await (await download).createReadStream();
  const head = await new Promise<string>((resolve) => tidy.once('data', (chunk) => resolve(String(chunk))));
  expect(head.split(/\r?\n/)[0]).toBe('frame,time_s,individual,bodypart,x,y,likelihood');

  // The Pose page: the nose's speed, then events on it, then Quick Score.
  await page.getByRole('link', { name: 'Analyse pose' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Pose' })).toBeVisible();
  await videoLoaded(page);
  const builder = page.getByTestId('derived-series-form');
  await builder.getByLabel('Measure', { exact: true }).selectOption('speed');
  await builder.getByLabel('Body part', { exact: true }).selectOption('nose');
  await builder.getByRole('button', { name: 'Compute series' }).click();
  const result = page.getByTestId('run-result');
  await expect(result.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
  await expect(result.getByRole('heading', { name: 'Speed of nose' })).toBeVisible();
  await expect(result.getByTestId('pose-series-chart').locator('canvas').first()).toBeVisible();
  // Frame 0 has no speed (no frame before it): every other frame has one.
  await expect(result.getByTestId('pose-series-summary')).toContainText(`${CODED.frames - 1} of ${CODED.frames}`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SCREENSHOTS, 'pose-page.png') });
  await result.screenshot({ path: path.join(SCREENSHOTS, 'pose-series.png') });

  await result.getByRole('button', { name: 'Detect events' }).click();
  const detect = page.getByRole('dialog', { name: 'Detect events' });
  await detect.getByRole('button', { name: 'Detect events', exact: true }).click();
  await expect(detect).toBeHidden();
  await expect(result.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
  const events = result.getByTestId('event-item');
  await expect(events).toHaveCount(OBJECT_SCENE.jumps.length);
  const times = await events.evaluateAll((items) => items.map((item) => Number(item.getAttribute('data-time'))));
  expect(times.map((time) => Math.round(time * CODED.fps))).toEqual(OBJECT_SCENE.jumps);
  await result.screenshot({ path: path.join(SCREENSHOTS, 'pose-events.png') });
  const detection = new URL(page.url()).searchParams.get('run')!;
  await result.getByRole('link', { name: 'Review in Quick Score' }).click();
  await expect(page.getByTestId('event-position')).toHaveText(`Event 1 of ${OBJECT_SCENE.jumps.length}`);
  await expect(page.getByTestId('pose-panel')).toBeVisible();

  // Analysis Logs names the series the detection read, and opens it on the Pose page.
  await page.goto(`/projects/${place.projectUuid}/analysis-logs`);
  const logRow = page.locator(`[data-run="${detection}"]`);
  await logRow.getByRole('button', { name: /^Show details of/ }).click();
  await expect(page.getByTestId('run-series')).toHaveText('Speed of nose (px/s)');
  await logRow.getByRole('button', { name: /^Actions for/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Open result' })).toHaveAttribute(
    'href',
    `/projects/${place.projectUuid}/pose?${new URLSearchParams({ subject: place.subjectUuid, video: place.videoUuid, run: detection })}`,
  );
  await page.keyboard.press('Escape');

  // A second series for the rule below: the nose's distance to the object.
  await page.goto(`/projects/${place.projectUuid}/pose?${query}`);
  await builder.getByLabel('Measure', { exact: true }).selectOption('distance');
  await builder.getByLabel('From', { exact: true }).selectOption('nose');
  await builder.getByLabel('To', { exact: true }).selectOption('object');
  await builder.getByRole('button', { name: 'Compute series' }).click();
  await expect(result.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
  await expect(result.getByRole('heading', { name: 'Distance nose–object' })).toBeVisible();

  // The Location Tracker: the nose's position, not the tracker's, in a zone around the object.
  await page.goto(`/projects/${place.projectUuid}/location-tracker?${query}`);
  await videoLoaded(page);
  await page.getByLabel('Position from').selectOption('pose');
  await expect(page.getByLabel('Body part')).toHaveValue('nose');
  await expect(page.getByRole('button', { name: 'Preview' })).toBeDisabled();
  const canvas = page.getByTestId('zone-canvas');
  const at = async (x: number, y: number) => {
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    return [box.x + (x * box.width) / CODED.width, box.y + (y * box.height) / CODED.height] as const;
  };
  await page.getByRole('button', { name: 'Rectangle' }).click();
  await page.mouse.move(...(await at(...OBJECT_SCENE.zone.from)));
  await page.mouse.down();
  await page.mouse.move(...(await at(250, 120)), { steps: 4 });
  await page.mouse.move(...(await at(...OBJECT_SCENE.zone.to)), { steps: 4 });
  await page.mouse.up();
  await page.getByLabel('Name of zone 1').fill('object');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SCREENSHOTS, 'location-from-pose.png'), fullPage: true });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
  // 120 frames inside (4 s of 30), 13.3 % of 900, entered twice, first at frame 300 (10 s).
  await expect(page.getByTestId('zone-result-row').getByRole('cell')).toHaveText([
    'object',
    '4',
    '13.3',
    '2',
    '10',
    /^\d+(\.\d+)?$/,
  ]);
  await expect(page.getByTestId('location-pose-source')).toContainText(
    'the body part nose in the pose set “DLC object”',
  );

  // The Annotator: a track filled where the nose is within 20 px of the object — the two visits.
  await page.goto(`/projects/${place.projectUuid}/annotator?${query}`);
  await videoLoaded(page);
  await page.getByRole('button', { name: 'Fill from a series…' }).click();
  const fill = page.getByRole('dialog', { name: 'Fill a track from a series' });
  const series = fill.getByLabel('Series');
  const distanceRun = await series.locator('option', { hasText: 'Distance nose–object (px)' }).getAttribute('value');
  await series.selectOption(distanceRun!);
  await fill.getByLabel('Value is').selectOption('lt');
  await fill.getByLabel('Threshold (px)').fill('20');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'annotator-fill.png') });
  await fill.getByRole('button', { name: 'Fill track' }).click();
  await expect(fill).toBeHidden();
  const track = page.getByTestId('track-row').filter({ hasText: 'Distance nose–object < 20 px' });
  await expect(track.getByTestId('track-figures')).toHaveText('2 bouts · 00:04');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'annotator-filled.png') });
  const tracks = await request.get(
    `/api/projects/${place.projectUuid}/subjects/${place.subjectUuid}/videos/${place.videoUuid}/annotations/config/`,
    { headers: { Authorization: `Bearer ${user.access}` } },
  );
  const [filled] = (await tracks.json()) as { annotation_config_uuid: string }[];
  const ranges = await request.get(
    `/api/projects/${place.projectUuid}/subjects/${place.subjectUuid}/videos/${place.videoUuid}/annotations/${filled!.annotation_config_uuid}/`,
    { headers: { Authorization: `Bearer ${user.access}` } },
  );
  expect((await ranges.json()).ranges).toEqual(OBJECT_SCENE.visits.map(([a, b]) => [a / CODED.fps, b / CODED.fps]));
});
