import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { finishedRun, startRun, uploadReadyVideo, type VideoPlace } from '../support/analysis';
import { createProject, createSubject, createUser, expect, signIn, type TestUser, test } from '../support/fixtures';
import { JUMPS, jumpsVideoPath } from '../support/jumps-video';

test.describe.configure({ mode: 'serial' });

let owner: TestUser;
let place: VideoPlace;
let runUuid = '';
/** Bouts at the jumps, hand-scored (starts 1.0, 2.0 and 3.5 s). */
let jumpsTrack = '';
/** A scorer who marked the first two jumps and one bout at 4.2 s that nothing moved in. */
let handTrack = '';

const auth = (user: TestUser) => ({ Authorization: `Bearer ${user.access}` });
const videoUrl = (v: VideoPlace) => `/api/projects/${v.projectUuid}/subjects/${v.subjectUuid}/videos/${v.videoUuid}/`;

async function trackWith(request: APIRequestContext, name: string, ranges: [number, number][]) {
  const created = await request.post(`${videoUrl(place)}annotations/config/`, { headers: auth(owner), data: { name } });
  expect(created.status(), await created.text()).toBe(201);
  const uuid = (await created.json()).annotation_config_uuid as string;
  const put = await request.put(`${videoUrl(place)}annotations/${uuid}/`, {
    headers: auth(owner),
    data: { ranges, version: 0 },
  });
  expect(put.ok(), await put.text()).toBe(true);
  return uuid;
}

/** The frame the player shows (its element's clock, at the middle of frames). */
const shownFrame = (page: Page) =>
  page
    .getByTestId('video-element')
    .evaluate((v: HTMLVideoElement, fps) => Math.floor(v.currentTime * fps + 1e-6), JUMPS.fps);

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  owner = await createUser(request, 'Rater');
  const project = await createProject(request, owner, 'Agreement study');
  const subject = await createSubject(request, owner, project.project_uuid, 'M12');
  place = await uploadReadyVideo(request, owner, project.project_uuid, subject.subject_uuid, jumpsVideoPath(), 'Jumps');
  const run = await startRun(request, owner, place, {
    kind: 'movement_detection',
    parameters: { rois: [{ start_s: 0, ...JUMPS.leftRoi }] },
  });
  expect((await finishedRun(request, owner, place, run.analysis_uuid, 90_000)).status).toBe('succeeded');
  runUuid = run.analysis_uuid;
  // Quick Score's part, over the API: the event at 3.5 s is discarded as a false alarm.
  const events = await (
    await request.get(`${videoUrl(place)}analysis/retrieve-events/?analysis_uuid=${runUuid}`, { headers: auth(owner) })
  ).json();
  expect(events.events).toHaveLength(3);
  const reviewed = await request.post(`${videoUrl(place)}analysis/update-events/`, {
    headers: auth(owner),
    data: {
      analysis_uuid: runUuid,
      version: events.version,
      changes: [{ action: 'discard', id: events.events[2].id }],
    },
  });
  expect(reviewed.ok(), await reviewed.text()).toBe(true);
  handTrack = await trackWith(request, 'Twitches by hand', [
    [1, 1.4],
    [2, 2.4],
    [4.2, 4.6],
  ]);
  jumpsTrack = await trackWith(request, 'Jumps', [
    [1, 1.2],
    [2, 2.2],
    [3.5, 3.7],
  ]);
});

test('compares a reviewed run with a hand track and steps through a disagreement in the player', async ({ page }) => {
  await signIn(page, owner, { activeProjectUuid: place.projectUuid });
  // From the Annotator: the track's menu opens the Agreement view with the track as the reference.
  await page.goto(`/projects/${place.projectUuid}/annotator?subject=${place.subjectUuid}&video=${place.videoUuid}`);
  await page.getByRole('button', { name: 'Actions for Twitches by hand' }).click();
  await page.getByRole('menuitem', { name: 'Agreement with another scoring' }).click();
  await expect(page.getByRole('heading', { name: 'Agreement', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`reference=track%3A${handTrack}`));
  await expect(page.locator('#agreement-reference-track')).toHaveValue(handTrack);

  // The candidate: the run's events as reviewed.
  await page.locator('#agreement-candidate-kind').selectOption('run_reviewed');
  await page.locator('#agreement-candidate-run').selectOption(runUuid);
  await expect(page).toHaveURL(new RegExp(`candidate=run_reviewed%3A${runUuid}`));
  // Hand 1.0, 2.0, 4.2 against reviewed 1.0, 2.0: two pairs, one missed, nothing extra.
  await expect(page.getByTestId('figure-tp')).toContainText('2');
  await expect(page.getByTestId('figure-fn')).toContainText('1');
  await expect(page.getByTestId('figure-fp')).toContainText('0');
  await expect(page.getByTestId('figure-f1')).toContainText('0.8');
  await expect(page.getByTestId('figure-precision')).toContainText('1');
  await expect(page.getByText('Interval agreement needs ranges on both sides')).toBeVisible();
  // The definitions are on the page, word for word.
  await page.getByTestId('definitions').locator('summary').click();
  await expect(page.getByTestId('definitions')).toContainText('the maximum one-to-one matching of R and C events');

  // The one disagreement: the bout at 4.2 s the detector never saw. Next opens its clip and the player ends on it.
  await expect(page.getByTestId('disagreement-item')).toHaveCount(1);
  await expect(page.getByTestId('disagreement-item')).toContainText('0:00:04.200');
  await expect
    .poll(() => page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.readyState))
    .toBeGreaterThanOrEqual(2);
  await page.getByRole('button', { name: 'Next disagreement' }).click();
  await expect(page.getByTestId('disagreement-position')).toHaveText('1 of 1');
  await expect(page.getByTestId('disagreement-item')).toHaveAttribute('aria-current', 'true');
  // The clip (3.7–4.7 s) plays and stops; the player rests on the missed event's frame.
  await expect.poll(() => shownFrame(page), { timeout: 15_000 }).toBe(Math.round(4.2 * JUMPS.fps));

  // An uploaded CSV of ranges as the candidate: interval agreement frame by frame.
  const dir = mkdtempSync(path.join(tmpdir(), 'agreement-'));
  const csv = path.join(dir, 'second-rater.csv');
  writeFileSync(csv, 'start,end\n1.1,1.4\n2,2.4\n');
  await page.locator('#agreement-candidate-kind').selectOption('upload');
  await page.getByLabel('Candidate (C): CSV file').setInputFiles(csv);
  await expect(page.getByTestId('agreement-candidate-upload')).toHaveText('second-rater.csv: 2 ranges');
  // 150 frames: hand 30–41, 60–71, 126–137 (36); second rater 33–41, 60–71 (21), all inside.
  await expect(page.getByTestId('cell-both')).toContainText('21');
  await expect(page.getByTestId('cell-reference-only')).toContainText('15');
  await expect(page.getByTestId('cell-candidate-only')).toContainText('0');
  await expect(page.getByTestId('cell-neither')).toContainText('114');
  const kappa = (2 * (21 * 114 - 15 * 0)) / ((21 + 15) * (15 + 114) + (21 + 0) * (0 + 114));
  await expect(page.getByTestId('figure-kappa')).toContainText(String(Number(kappa.toFixed(3))));
  // Missed 4.2 s, and two stretches where only R has the behaviour (1.0–1.1 s, 4.2–4.6 s); stepping backwards.
  await expect(page.getByTestId('disagreement-item')).toHaveCount(3);
  await page.getByRole('button', { name: 'Previous disagreement' }).click();
  await expect(page.getByTestId('disagreement-position')).toHaveText('3 of 3');
  await expect(page.getByTestId('disagreement-item').nth(2)).toContainText('Behaviour in R only');
  await expect(page.getByTestId('agreement-timeline')).toHaveAttribute(
    'aria-label',
    /2 stretches where the intervals disagree/,
  );
});

test('calibrates a run against a hand track and applies the best setting', async ({ page }) => {
  await signIn(page, owner, { activeProjectUuid: place.projectUuid });
  await page.goto(
    `/projects/${place.projectUuid}/movement-detector?subject=${place.subjectUuid}&video=${place.videoUuid}&run=${runUuid}`,
  );
  const panel = page.getByTestId('calibrate-panel');
  await expect(panel).toBeVisible();
  await panel.locator('#calibrate-reference-track').selectOption(jumpsTrack);
  await panel.getByRole('button', { name: 'Calibrate', exact: true }).click();
  // 91 settings of k; the curve is drawn; every jump found at the best one; too few events to trust.
  await expect(panel.getByText('91 settings')).toBeVisible();
  await expect(panel.getByTestId('calibration-curve').locator('canvas')).toBeVisible();
  await expect(panel.getByTestId('calibration-best')).toContainText('F1 1 (TP 3, FP 0, FN 0), 3 events');
  await expect(panel.getByTestId('calibration-warnings')).toContainText('only 3 events (fewer than 10)');
  const best = /k = ([\d.]+)/.exec((await panel.getByTestId('calibration-best').textContent()) ?? '')![1]!;

  // Apply: a new event-detection run on the same series opens as the result, with the best k and its 3 events.
  await panel.getByRole('button', { name: 'Apply' }).click();
  await expect(page).not.toHaveURL(new RegExp(`run=${runUuid}`));
  const applied = new URL(page.url()).searchParams.get('run')!;
  // The URL changes first; the page follows once the navigation's render has finished and the new run succeeded
  // (its Agreement link only shows for a finished run).
  await expect(page.getByRole('link', { name: 'Agreement', exact: true })).toHaveAttribute(
    'href',
    new RegExp(`candidate=run_reviewed%3A${applied}`),
    { timeout: 30_000 },
  );
  const result = page.getByTestId('run-result');
  await expect(result).toContainText('Event detection');
  await expect(page.getByTestId('run-summary')).toContainText('Detected3 events');
  const run = await (await page.request.get(`${videoUrl(place)}analysis/${applied}/`, { headers: auth(owner) })).json();
  expect(run).toMatchObject({ kind: 'event_detection', source_analysis_uuid: runUuid, status: 'succeeded' });
  expect(run.parameters.event_threshold_k).toBe(Number(best));

  // The agreement of the applied run with the reference is the best setting's.
  await page.getByRole('link', { name: 'Agreement', exact: true }).click();
  await page.locator('#agreement-reference-track').selectOption(jumpsTrack);
  await page.locator('#agreement-candidate-kind').selectOption('run_detected');
  await expect(page.locator('#agreement-candidate-run')).toHaveValue(applied);
  await expect(page.getByTestId('figure-f1')).toContainText('1');
  await expect(page.getByTestId('disagreement-item')).toHaveCount(0);
});
