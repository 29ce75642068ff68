import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { uploadReadyVideo, type VideoPlace } from '../support/analysis';
import { createProject, createSubject, createUser, expect, signIn, type TestUser, test } from '../support/fixtures';
import { type ApiEvent, CODED, codedVideoPath, importRunWithEvents, quickScoreUrl } from '../support/quick-score';

test.describe.configure({ mode: 'serial' });

/** Five events, a second apart from frame 45 (1.5 s) on. */
const EVENT_FRAMES = [45, 75, 105, 135, 165];
const SCREENSHOTS = path.resolve(import.meta.dirname, '../../docs/screenshots');

let ada: TestUser;
let bob: TestUser;
let place: VideoPlace;
let run = '';

const bobId = () => Number(bob.user.id);
const auth = (user: TestUser) => ({ Authorization: `Bearer ${user.access}` });
const runUrl = () =>
  `/api/projects/${place.projectUuid}/subjects/${place.subjectUuid}/videos/${place.videoUuid}/analysis/${run}/`;

async function eventsOf(request: APIRequestContext, user: TestUser, which: 'consensus' | 'mine') {
  const url =
    which === 'mine'
      ? `${runUrl()}my-scoring/`
      : `/api/projects/${place.projectUuid}/subjects/${place.subjectUuid}/videos/${place.videoUuid}/analysis/retrieve-events/?analysis_uuid=${run}`;
  const response = await request.get(url, { headers: auth(user) });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { events: ApiEvent[] }).events;
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  ada = await createUser(request, 'Ada');
  bob = await createUser(request, 'Bob');
  const project = await createProject(request, ada, 'Inter-rater reliability');
  const subject = await createSubject(request, ada, project.project_uuid, 'M3');
  place = await uploadReadyVideo(request, ada, project.project_uuid, subject.subject_uuid, codedVideoPath(), 'coded');
  const invited = await request.post(`/api/projects/${project.project_uuid}/invitations/`, {
    headers: auth(ada),
    data: { email: bob.email, role: 'member' },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const { invitation_uuid } = (await invited.json()) as { invitation_uuid: string };
  const accepted = await request.post(`/api/projects/${project.project_uuid}/invitations/${invitation_uuid}/accept/`, {
    headers: auth(bob),
  });
  expect(accepted.ok(), await accepted.text()).toBe(true);
  run = (await importRunWithEvents(request, ada, place, EVENT_FRAMES, CODED.frames)).analysisUuid;
});

test('a second scorer is asked, scores blind without seeing the first one’s decisions, and Agreement compares the two', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const adaContext = await browser.newContext();
  const bobContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const adaPage = await adaContext.newPage();
  const bobPage = await bobContext.newPage();

  // Ada is the first: no question, she works on the run's events. She discards event 1 and flags event 2.
  await signIn(adaPage, ada, { activeProjectUuid: place.projectUuid });
  await adaPage.goto(quickScoreUrl(place, run));
  await expect(adaPage.getByTestId('event-position')).toHaveText('Event 1 of 5', { timeout: 30_000 });
  await expect(adaPage.getByTestId('scorer-choice')).toHaveCount(0);
  await adaPage.keyboard.press('d');
  await expect(adaPage.getByTestId('event-state')).toContainText('Discarded');
  await adaPage.keyboard.press('ArrowRight');
  await expect(adaPage.getByTestId('event-position')).toHaveText('Event 2 of 5');
  await adaPage.keyboard.press('f');
  await expect(adaPage.getByTestId('event-state')).toContainText('Flagged');
  await expect
    .poll(async () => (await eventsOf(request, ada, 'consensus')).map((e) => [e.discarded, e.flagged]).slice(0, 2))
    .toEqual([
      [true, false],
      [false, true],
    ]);

  // Bob opens the same run: he is asked which to do, naming Ada's work.
  await signIn(bobPage, bob, { activeProjectUuid: place.projectUuid });
  await bobPage.goto(quickScoreUrl(place, run));
  const choice = bobPage.getByTestId('scorer-choice');
  await expect(choice).toContainText('Others have scored this run', { timeout: 30_000 });
  await expect(choice).toContainText(`${ada.firstName} User (2 events of the consensus)`);
  await bobPage.mouse.move(0, 0);
  await bobPage.screenshot({ path: path.join(SCREENSHOTS, 'scorer-choice.png') });

  // Blind: the events as detected, none of Ada's discard or flag.
  await choice.getByRole('button', { name: 'Score blind, on my own' }).click();
  await expect(bobPage.getByTestId('scoring-mode')).toContainText('Your blind scoring');
  await expect(bobPage.getByTestId('event-position')).toHaveText('Event 1 of 5');
  await expect(bobPage.getByTestId('event-state')).not.toContainText('Discarded');
  await expect(bobPage.getByTestId('event-reviewed-by')).toHaveText('not yet');
  // He keeps event 1 (steps past it), and discards event 2, which is not flagged in his scoring.
  await bobPage.keyboard.press('ArrowRight');
  await expect(bobPage.getByTestId('event-position')).toHaveText('Event 2 of 5');
  await expect(bobPage.getByTestId('event-state')).not.toContainText('Flagged');
  await bobPage.keyboard.press('d');
  await expect(bobPage.getByTestId('event-state')).toContainText('Discarded');
  await expect
    .poll(async () => (await eventsOf(request, bob, 'mine')).map((e) => [e.discarded, e.reviewed_by?.id ?? null]))
    .toEqual([
      [false, bobId()],
      [true, bobId()],
      [false, null],
      [false, null],
      [false, null],
    ]);
  // The consensus is Ada's still; Ada's screen is unchanged.
  expect((await eventsOf(request, ada, 'consensus')).map((e) => e.discarded)).toEqual([
    true,
    false,
    false,
    false,
    false,
  ]);

  // Reopening: Bob lands in his scoring, not the question; he can look at the consensus when he chooses.
  await bobPage.reload();
  await expect(bobPage.getByTestId('scoring-mode')).toContainText('Your blind scoring');
  await bobPage.getByRole('button', { name: 'Show the consensus' }).click();
  await expect(bobPage.getByTestId('scoring-mode')).toContainText('The consensus');
  await expect(bobPage.getByTestId('event-position')).toHaveText(/^Event \d of 5$/);

  // Agreement: the consensus (Ada) against Bob's blind scoring.
  const agreement = `/projects/${place.projectUuid}/agreement?subject=${place.subjectUuid}&video=${place.videoUuid}&reference=run_reviewed:${run}&candidate=scorer:${run}:${bobId()}`;
  await bobPage.goto(agreement);
  await expect(bobPage.getByTestId('agreement-candidate-picker').getByLabel('Scorer')).toHaveValue(String(bobId()));
  const result = bobPage.getByTestId('agreement-result');
  // Kept: the consensus events 2–5, Bob 1, 3, 4, 5 → TP 3, FN 1, FP 1, F1 0.75.
  await expect(result.getByTestId('figure-tp')).toContainText('3');
  await expect(result.getByTestId('figure-fn')).toContainText('1');
  await expect(result.getByTestId('figure-fp')).toContainText('1');
  await expect(result.getByTestId('figure-f1')).toContainText('0.75');
  // Decisions: both kept 3, one each alone, none discarded by both: po 0.6, pe 0.68, κ = −0.25.
  await expect(result.getByTestId('decision-kappa')).toContainText('κ -0.25');
  await expect(result.getByTestId('decision-kappa')).toContainText('60%');

  // The consensus view: event 1 (Ada discarded, Bob kept) and event 2 (Ada kept, Bob discarded) differ.
  const consensusView = result.getByTestId('consensus-view');
  await expect(consensusView.getByRole('listitem')).toHaveCount(2);
  const [first, second] = (await eventsOf(request, ada, 'consensus')).map((e) => e.id);
  await consensusView.getByTestId(`difference-${second}`).getByRole('button', { name: 'Take C’s' }).click();
  await expect(consensusView.getByTestId(`difference-${second}`)).toHaveCount(0);
  await consensusView.getByTestId(`difference-${first}`).getByRole('button', { name: 'Take R’s' }).click();
  await expect(consensusView.getByTestId(`difference-${first}`)).toContainText(`settled by ${bob.firstName} User`);
  const settled = (await eventsOf(request, ada, 'consensus')) as (ApiEvent & {
    resolved_by: { id: number } | null;
  })[];
  expect(settled.map((e) => [e.discarded, e.resolved_by?.id ?? null])).toEqual([
    [true, bobId()],
    [true, bobId()],
    [false, null],
    [false, null],
    [false, null],
  ]);

  await adaContext.close();
  await bobContext.close();
});
