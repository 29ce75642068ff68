import { readFileSync } from 'node:fs';
import {
  finishedRun,
  getRun,
  longSceneVideoPath,
  startRun,
  uploadReadyVideo,
  type VideoPlace,
} from '../support/analysis';
import { createProject, createSubject, createUser, expect, signIn, type TestUser, test } from '../support/fixtures';

/** Opening, closing and small-object removal make each frame cost more (well under 1 ms, still more). */
const SLOW_PARAMETERS = { opening: 25, closing: 25, small_object_removal: 50 };

test.describe.configure({ mode: 'serial' });

let user: TestUser;
let place: VideoPlace;
const VIDEO_NAME = 'Long session';
const SUBJECT_NAME = 'R7';

test.beforeAll(async ({ request }) => {
  test.setTimeout(240_000);
  user = await createUser(request, 'Logan');
  const project = await createProject(request, user, 'Logged runs');
  const subject = await createSubject(request, user, project.project_uuid, SUBJECT_NAME);
  place = await uploadReadyVideo(
    request,
    user,
    project.project_uuid,
    subject.subject_uuid,
    // An hour (108,000 frames): the slow run below lasts over a minute on two cores, so it is still running when the
    // table's Revoke is pressed even on a loaded CI machine (20 minutes once finished first there, twice in a row).
    longSceneVideoPath(40, 90),
    VIDEO_NAME,
  );
});

test('a succeeded run shows its event counts, detected and after review, and the project summary exports as CSV', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const started = await startRun(request, user, place, { kind: 'movement_detection', parameters: {} });
  const run = await finishedRun(request, user, place, started.analysis_uuid, 180_000);
  expect(run.status, run.error ?? '').toBe('succeeded');
  expect(run.event_counts).not.toBeNull();
  const { detected, kept } = run.event_counts!;

  await signIn(page, user);
  await page.goto(`/projects/${place.projectUuid}/analysis-logs`);
  const row = page.locator(`[data-run="${run.analysis_uuid}"]`);
  await expect(row.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
  await expect(row.getByText('Movement detection')).toBeVisible();
  await expect(row.getByTestId('run-events')).toHaveText(`${detected} detected · ${kept} kept`);
  await expect(row.getByTestId('run-duration')).toHaveText(/^\d\d:\d\d$/);

  // The expanded row lists the stored parameters, with every default filled in.
  await row.getByRole('button', { name: /^Show details of/ }).click();
  const details = page.getByTestId('run-details');
  await expect(details.getByText('Pixel change threshold')).toBeVisible();
  await expect(details.locator('[data-key="rois"]')).toHaveText('Whole frame');
  await expect(details.getByTestId('event-counts-detected')).toContainText(`${detected} event`);
  await expect(details.getByTestId('event-counts-kept')).toContainText(`${kept} kept`);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export the project summary as CSV' }).click();
  const file = await (await download).path();
  // Named after the project and the day, not an id.
  expect((await download).suggestedFilename()).toMatch(/_summary-\d{4}-\d\d-\d\d\.csv$/);
  const csv = readFileSync(file, 'utf8');
  expect(csv.startsWith('subject,group,video,analysis_uuid')).toBe(true);
  expect(csv).toContain(run.analysis_uuid);
});

test('a running run shows its progress, is revoked from the table after confirmation, and stays revoked', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const started = await startRun(request, user, place, { kind: 'movement_detection', parameters: SLOW_PARAMETERS });

  await signIn(page, user);
  await page.goto(`/projects/${place.projectUuid}/analysis-logs`);
  const row = page.locator(`[data-run="${started.analysis_uuid}"]`);
  const status = row.getByTestId('run-status');
  await expect(status).toHaveAttribute('data-status', 'running', { timeout: 30_000 });
  await expect(row.getByRole('progressbar', { name: 'Run progress' })).toBeVisible();
  // The table follows the run live: its percentage grows past zero.
  await expect
    .poll(async () => Number.parseInt((await row.getByTestId('run-progress').textContent()) ?? '0', 10), {
      timeout: 20_000,
    })
    .toBeGreaterThan(0);

  await row.getByRole('button', { name: `Revoke Movement detection of ${VIDEO_NAME} (${SUBJECT_NAME})` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Revoke this run?' });
  await expect(confirm).toBeVisible();
  const revoked = page.waitForResponse(
    (r) => r.request().method() === 'POST' && r.url().endsWith(`/${started.analysis_uuid}/revoke/`),
  );
  await confirm.getByRole('button', { name: 'Revoke run' }).click();
  const answer = await revoked;
  // On a refusal, say how the run had ended: a run that finished first is a too-short run, not a broken revoke.
  const ended = answer.ok() ? null : await getRun(request, user, place, started.analysis_uuid);
  expect(answer.ok(), `${answer.status()} ${await answer.text()} ${JSON.stringify(ended)}`).toBe(true);
  await expect(confirm).toBeHidden();
  await expect(status).toHaveAttribute('data-status', 'revoked');
  await expect(row.getByText('Revoked')).toBeVisible();
  await expect(row.getByRole('progressbar')).toHaveCount(0);
  await expect(row.getByRole('button', { name: /^Revoke / })).toHaveCount(0);

  // It stays revoked and its work has stopped: the progress no longer moves.
  const first = await getRun(request, user, place, started.analysis_uuid);
  expect(first.status).toBe('revoked');
  await page.waitForTimeout(3_000);
  const later = await getRun(request, user, place, started.analysis_uuid);
  expect(later.status).toBe('revoked');
  expect(later.progress).toBe(first.progress);
  expect(later.progress).toBeLessThan(1);
  await page.reload();
  await expect(page.locator(`[data-run="${started.analysis_uuid}"]`).getByTestId('run-status')).toHaveAttribute(
    'data-status',
    'revoked',
  );
});
