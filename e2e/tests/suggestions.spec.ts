import { execFileSync } from 'node:child_process';
import { existsSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { reviewScene } from '../../apps/server/src/modules/suggestions/engine/review-scenes';
import { uploadReadyVideo, type VideoPlace } from '../support/analysis';
import { createProject, createSubject, createUser, expect, signIn, type TestUser, test } from '../support/fixtures';
import { codedVideoPath, quickScoreUrl } from '../support/quick-score';

/**
 * Quick Score with suggestions (issue 25, ADR 038), by keys: three videos' series (the engine's generated scenes:
 * twitches and bursts kept and labelled, slow drifts discarded) reviewed over the API until the project's model has
 * learned from 100 events, then a fourth run reviewed in the browser — uncertain first (O), one suggestion accepted
 * by its key (A), and "accept all ≥ p" (Shift+A, Enter) after a confirmation that says how many.
 */
test.describe.configure({ mode: 'serial' });
// Tall enough for the event, its suggestion and the model's figures side by side with the clip.
test.use({ viewport: { width: 1440, height: 1400 } });

type Suggestion = { discard: boolean; label: string | null; confidence: number; model_version: number };
type ApiEvent = {
  id: number;
  time: number;
  original_time: number | null;
  reviewed_by: { id: number } | null;
  suggestion: Suggestion | null;
  accepted_suggestion: (Suggestion & { in_bulk: boolean; accepted_by: { id: number } | null }) | null;
};

let member: TestUser;
let viewer: TestUser;
let review: VideoPlace;
let reviewRun = '';

const auth = (user: TestUser) => ({ Authorization: `Bearer ${user.access}` });
const base = (place: VideoPlace) =>
  `/api/projects/${place.projectUuid}/subjects/${place.subjectUuid}/videos/${place.videoUuid}/analysis/`;

/** The coded 30-second clip played four times over (stream copy): a 2-minute video for a 2-minute series. */
function twoMinuteVideo(): string {
  const clip = codedVideoPath();
  const file = clip.replace(/\.mp4$/, '-x4.mp4');
  if (existsSync(file)) return file;
  const partial = `${file}.${process.pid}.partial.mp4`;
  execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-stream_loop', '3', '-i', clip, '-c', 'copy', partial]);
  renameSync(partial, file);
  return file;
}

async function importSeries(request: APIRequestContext, place: VideoPlace, values: Float64Array): Promise<string> {
  const response = await request.post(`${base(place)}import_timeseries/`, {
    headers: auth(member),
    multipart: {
      timeseries: { name: 'series.csv', mimeType: 'text/csv', buffer: Buffer.from(`value\n${values.join('\n')}\n`) },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { analysis_uuid: string }).analysis_uuid;
}

async function events(request: APIRequestContext, user: TestUser, place: VideoPlace, analysisUuid: string) {
  const response = await request.get(`${base(place)}retrieve-events/?analysis_uuid=${analysisUuid}`, {
    headers: auth(user),
  });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as { version: number; events: ApiEvent[] };
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(240_000);
  member = await createUser(request, 'Sana');
  viewer = await createUser(request, 'Viktor');
  const project = await createProject(request, member, 'Learned suggestions');
  const subject = await createSubject(request, member, project.project_uuid, 'P9-01');
  const upload = (file: string, name: string) =>
    uploadReadyVideo(request, member, project.project_uuid, subject.subject_uuid, file, name);
  // 100 reviewed events over three videos (34, 33, 33), decided as a careful reviewer would, through the API.
  for (const [v, seed] of [1, 2, 3].entries()) {
    const place = await upload(codedVideoPath(), `training-${seed}`);
    const scene = reviewScene(seed);
    const run = await importSeries(request, place, scene.series.values);
    const { version, events: list } = await events(request, member, place, run);
    const changes = list.slice(0, v === 0 ? 34 : 33).map((event, i) => {
      const truth = scene.events[i]!;
      expect(Math.abs(truth.time - event.original_time!)).toBeLessThan(1e-6);
      if (truth.discarded) return { action: 'discard', id: event.id };
      return truth.label ? { action: 'label', id: event.id, label: truth.label } : { action: 'review', id: event.id };
    });
    const saved = await request.post(`${base(place)}update-events/`, {
      headers: auth(member),
      data: { analysis_uuid: run, version, changes },
    });
    expect(saved.status(), await saved.text()).toBe(200);
  }
  // A training started by itself at the 50th review; "Train now" takes in the rest: wait for the model of all 100.
  const train = await request.post(`/api/projects/${project.project_uuid}/models/train/`, {
    headers: auth(member),
    data: { kind: 'timeseries_import' },
  });
  expect(train.status(), await train.text()).toBe(202);
  const models = `/api/projects/${project.project_uuid}/models/?kind=timeseries_import`;
  await expect
    .poll(
      async () => {
        const [model] = (await (await request.get(models, { headers: auth(member) })).json()).results;
        return model?.training.state === 'idle' ? model.examples : null;
      },
      { timeout: 120_000 },
    )
    .toBe(100);
  review = await upload(twoMinuteVideo(), 'review');
  reviewRun = await importSeries(request, review, reviewScene(5, 120).series.values);
  const invited = await request.post(`/api/projects/${project.project_uuid}/invitations/`, {
    headers: auth(member),
    data: { email: viewer.email, role: 'viewer' },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const { invitation_uuid } = (await invited.json()) as { invitation_uuid: string };
  const accepted = await request.post(`/api/projects/${project.project_uuid}/invitations/${invitation_uuid}/accept/`, {
    headers: auth(viewer),
  });
  expect(accepted.ok(), await accepted.text()).toBe(true);
});

async function openReview(page: Page, user: TestUser) {
  await signIn(page, user, { activeProjectUuid: review.projectUuid });
  await page.goto(quickScoreUrl(review, reviewRun));
  await expect(page.getByTestId('event-position')).toHaveText(/^Event 1 of \d+$/);
  await expect(page.getByTestId('model-version')).toContainText('model v');
}

const percent = (share: number) => `${Math.round(share * 100)} %`;

test('reviews with suggestions by keys: uncertain first, A accepts one, Shift+A accepts all ≥ 0.9 after counting them', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const initial = (await events(request, member, review, reviewRun)).events;
  const suggested = initial.filter((event) => event.suggestion);
  expect(suggested.length).toBeGreaterThan(4);
  await openReview(page, member);
  await expect(page.getByTestId('model-figures')).toContainText('Discard');

  // O: the events nobody decided on, least confident first — those without a suggestion, then the lowest confidence.
  await page.keyboard.press('o');
  const unsure = initial.filter((event) => !event.suggestion).length;
  await expect(page.getByTestId('uncertain-first')).toContainText(`Uncertain first: 1 of ${initial.length}`);
  for (let i = 0; i < unsure; i++) {
    await expect(page.getByTestId('suggestion')).toHaveCount(0);
    await page.keyboard.press('ArrowRight');
  }
  const leastSure = [...suggested].sort((a, b) => a.suggestion!.confidence - b.suggestion!.confidence)[0]!;
  await expect(page.getByTestId('uncertain-first')).toContainText(`${unsure + 1} of ${initial.length}`);
  await expect(page.getByTestId('suggestion-confidence')).toHaveText(percent(leastSure.suggestion!.confidence));
  if (process.env.SUGGESTIONS_SCREENSHOT) {
    await page.screenshot({
      path: path.resolve(import.meta.dirname, '../../docs/screenshots/quick-score-suggestions.png'),
    });
  }

  // A accepts it (the reviewer's decision, saved through the queue) and moves on.
  const onScreen = initial.find(
    (event) => event.suggestion && event.suggestion.confidence === leastSure.suggestion!.confidence,
  )!;
  await page.keyboard.press('a');
  await expect(page.getByTestId('uncertain-first')).toContainText(`${unsure + 2} of ${initial.length}`);
  await expect
    .poll(async () => (await events(request, member, review, reviewRun)).events.find((e) => e.id === onScreen.id))
    .toMatchObject({
      reviewed_by: { id: Number(member.user.id) },
      accepted_suggestion: { in_bulk: false, model_version: onScreen.suggestion!.model_version },
    });

  // Shift+A: the confirmation counts the suggestions ≥ 90 %; Enter accepts exactly those, in bulk.
  const before = (await events(request, member, review, reviewRun)).events;
  const confident = before.filter(
    (e) => !e.reviewed_by && !e.accepted_suggestion && (e.suggestion?.confidence ?? 0) >= 0.9,
  );
  expect(confident.length).toBeGreaterThan(2);
  await page.keyboard.press('Shift+A');
  const dialog = page.getByTestId('accept-all-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('accept-all-count')).toContainText(`This accepts ${confident.length} suggestions`);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect
    .poll(async () =>
      (await events(request, member, review, reviewRun)).events
        .filter((e) => e.accepted_suggestion?.in_bulk)
        .map((e) => e.id)
        .sort((a, b) => a - b),
    )
    .toEqual(confident.map((e) => e.id).sort((a, b) => a - b));
  await expect(page.getByTestId('accepted-unseen')).toContainText(`${confident.length} accepted in bulk`);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
});

test('a viewer sees the suggestions and the model, and cannot accept them', async ({ page, request }) => {
  const before = (await events(request, viewer, review, reviewRun)).events;
  const open = before.find((event) => event.suggestion);
  await openReview(page, viewer);
  await expect(page.getByTestId('train-now')).toHaveCount(0);
  await expect(page.getByTestId('accept-all')).toHaveCount(0);
  // Walk to an event with a suggestion: shown, without its button; A changes nothing.
  for (const event of before) {
    if (event.id === open?.id) break;
    await page.keyboard.press('ArrowRight');
  }
  expect(open).toBeDefined();
  await expect(page.getByTestId('suggestion')).toBeVisible();
  await expect(page.getByTestId('accept-suggestion')).toHaveCount(0);
  await page.keyboard.press('a');
  await page.waitForTimeout(500);
  const after = (await events(request, viewer, review, reviewRun)).events.find((e) => e.id === open!.id);
  expect(after?.accepted_suggestion).toBeNull();
});
