import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { finishedRun, startRun, uploadReadyVideo, type VideoPlace } from '../support/analysis';
import { createProject, createSubject, createUser, expect, signIn, type TestUser, test } from '../support/fixtures';
import { testVideoPath } from '../support/global-setup';
import { importRunWithEvents, quickScoreUrl } from '../support/quick-score';

/** Issue 20's first hour: each video's tools open on it and remember it; the checklist; the invitation landing. */
test.describe.configure({ mode: 'serial' });

/** pattern-4s.mp4: 320 × 240, 30 fps, 4 s. */
const FRAMES = 120;

let user: TestUser;
let projectUuid = '';
let subjectUuid = '';
let first: VideoPlace;
let second: VideoPlace;

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  user = await createUser(request, 'Carla');
  projectUuid = (await createProject(request, user, 'Context study')).project_uuid;
  subjectUuid = (await createSubject(request, user, projectUuid, 'M3')).subject_uuid;
  first = await uploadReadyVideo(request, user, projectUuid, subjectUuid, testVideoPath(), 'Day 1');
  second = await uploadReadyVideo(request, user, projectUuid, subjectUuid, testVideoPath(), 'Day 2');
});

/** A link of the sidebar (the dashboard has links of the same names). */
const sidebarLink = (page: Page, name: string) =>
  page.locator('[data-slot="sidebar-container"]').getByRole('link', { name, exact: true });

const mdUrl = (place: VideoPlace, run?: string) =>
  `/projects/${place.projectUuid}/movement-detector?subject=${place.subjectUuid}&video=${place.videoUuid}${
    run ? `&run=${run}` : ''
  }`;

test("the video's Detect movement opens the detector on it with its last run's regions; another video offers them", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const rois = [{ start_s: 0, x: 10, y: 20, width: 100, height: 80 }];
  const run = await startRun(request, user, first, {
    kind: 'movement_detection',
    parameters: { rois, threshold: 33 },
  });
  await finishedRun(request, user, first, run.analysis_uuid);

  await signIn(page, user, { activeProjectUuid: projectUuid });
  await page.goto(`/projects/${projectUuid}/subjects/${subjectUuid}`);
  await page.getByRole('link', { name: 'Detect movement: Day 1' }).click();
  // Opened on the video, then on its last run: the result, its regions and its parameters.
  await expect(page).toHaveURL(mdUrl(first, run.analysis_uuid));
  await expect(page.getByTestId('run-result')).toBeVisible();
  await expect(page.getByLabel('Threshold', { exact: true })).toHaveValue('33');
  await expect(page.getByTestId('active-roi')).toContainText('x 10, y 20, 100 × 80 px');
  await expect(page.getByTestId('same-camera')).toHaveCount(0);

  // Day 2 has no run: the whole picture, and Day 1's regions on offer ("same camera").
  await page.getByLabel('Video', { exact: true }).selectOption({ label: 'Day 2' });
  await expect(page).toHaveURL(mdUrl(second));
  await expect(page.getByTestId('active-roi')).toContainText('whole picture (320 × 240 px)');
  const offer = page.getByTestId('same-camera');
  await expect(offer.getByLabel('Same camera: regions of')).toContainText('Day 1');
  await offer.getByRole('button', { name: 'Use its region' }).click();
  await expect(page.getByTestId('active-roi')).toContainText('x 10, y 20, 100 × 80 px');
  await expect(page.getByText('Regions from Day 1’s last run.')).toBeVisible();

  // From the sidebar the detector goes back to where this user last was in this project.
  await sidebarLink(page, 'Home').click();
  await sidebarLink(page, 'Movement Detector').click();
  await expect(page).toHaveURL(mdUrl(second));
  expect(
    await page.evaluate(
      ({ id, p }) => JSON.parse(localStorage.getItem(`tool-context:${id}:${p}:movement-detector`) ?? 'null'),
      { id: user.user.id, p: projectUuid },
    ),
  ).toEqual({ subject: subjectUuid, video: second.videoUuid, run: null });

  // The detector's own sidebar link, followed from the detector itself (the page stays mounted), goes back there too.
  await sidebarLink(page, 'Movement Detector').click();
  await expect(page).toHaveURL(mdUrl(second));
  await expect(page.getByLabel('Video', { exact: true })).toHaveValue(second.videoUuid);
});

test('Annotate opens the Annotator on the video, and the sidebar link returns to it', async ({ page }) => {
  await signIn(page, user, { activeProjectUuid: projectUuid });
  await page.goto(`/projects/${projectUuid}/subjects/${subjectUuid}`);
  await page.getByRole('link', { name: 'Annotate: Day 2' }).click();
  const annotator = `/projects/${projectUuid}/annotator?subject=${subjectUuid}&video=${second.videoUuid}`;
  await expect(page).toHaveURL(annotator);
  await expect(page.getByLabel('Video', { exact: true })).toHaveValue(second.videoUuid);
  await sidebarLink(page, 'Home').click();
  await sidebarLink(page, 'Annotator').click();
  await expect(page).toHaveURL(annotator);
});

async function eventPosition(page: Page) {
  return page.getByTestId('event-position');
}

test('Quick Score never opens a run with 0 events when one has events, remembers the run, and says when keys pause', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // On Day 2: a run with two events, then a newer one that found none.
  const withEvents = await importRunWithEvents(request, user, second, [15, 45], FRAMES);
  const empty = await importRunWithEvents(request, user, second, [], FRAMES);
  await signIn(page, user, { activeProjectUuid: projectUuid });

  // The video's Quick Score: its newest run with events, not the newer empty one.
  await page.goto(`/projects/${projectUuid}/subjects/${subjectUuid}`);
  await page.getByRole('link', { name: 'Quick Score: Day 2' }).click();
  await expect(page).toHaveURL(quickScoreUrl(second, withEvents.analysisUuid));
  await expect(await eventPosition(page)).toHaveText('Event 1 of 2');

  // A dropdown choice hands the keys back to the page.
  await page.getByLabel('Clip').selectOption({ index: 1 });
  await page.keyboard.press('ArrowRight');
  await expect(await eventPosition(page)).toHaveText('Event 2 of 2');
  // A focused field pauses them, and the page says so; Escape gives them back.
  await page.getByLabel('Clip').focus();
  const paused = page.getByTestId('keys-paused');
  await expect(paused).toHaveText(
    'Keyboard shortcuts are paused while “Clip” has the focus. Press Esc to use them again.',
  );
  await page.keyboard.press('ArrowLeft');
  await expect(await eventPosition(page)).toHaveText('Event 2 of 2');
  await page.keyboard.press('Escape');
  await expect(paused).toHaveCount(0);
  await page.keyboard.press('ArrowLeft');
  await expect(await eventPosition(page)).toHaveText('Event 1 of 2');

  // Choosing the empty run, then the sidebar's Quick Score: the run with events, not the remembered empty one.
  await page.getByLabel('Run').selectOption(empty.analysisUuid);
  await expect(page).toHaveURL(quickScoreUrl(second, empty.analysisUuid));
  await sidebarLink(page, 'Home').click();
  await sidebarLink(page, 'Quick Score').click();
  await expect(page).toHaveURL(quickScoreUrl(second, withEvents.analysisUuid));

  // A newer run with events elsewhere does not displace the remembered one.
  const other = await importRunWithEvents(request, user, first, [30], FRAMES);
  await sidebarLink(page, 'Home').click();
  await sidebarLink(page, 'Quick Score').click();
  await expect(page).toHaveURL(quickScoreUrl(second, withEvents.analysisUuid));
  // Without a memory (another browser: no storage, nothing cached), the project's newest run with events.
  await page.evaluate(() => {
    for (const key of Object.keys(localStorage)) if (key.startsWith('tool-context:')) localStorage.removeItem(key);
  });
  await page.goto('/');
  await sidebarLink(page, 'Quick Score').click();
  await expect(page).toHaveURL(quickScoreUrl(first, other.analysisUuid));
});

test('a new project shows the getting-started checklist, ticked from its data, dismissable once done', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await createUser(request, 'Nora');
  await signIn(page, owner);
  // Creating the project opens its page, with the checklist on top.
  await page.goto('/');
  await page.getByRole('link', { name: 'Create your first project' }).click();
  await page.getByLabel('Project name').fill('Fresh lab');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page).toHaveURL(/\/projects\/[0-9a-f-]{36}$/);
  const project = { project_uuid: new URL(page.url()).pathname.split('/')[2]! };
  const base = `/projects/${project.project_uuid}`;
  const checklist = page.getByTestId('getting-started');
  await expect(checklist.getByRole('heading', { name: 'Getting started' })).toBeVisible();
  await expect(checklist).toContainText('0 of 5 steps done');
  // The dashboard shows it too.
  await sidebarLink(page, 'Home').click();
  await expect(page.getByRole('heading', { name: 'Fresh lab' })).toBeVisible();
  await expect(checklist).toContainText('0 of 5 steps done');
  const steps = ['subjects', 'upload', 'detect', 'review', 'export'] as const;
  const hrefs = ['subjects', 'subjects', 'movement-detector', 'quick-score', 'analysis-logs'];
  for (const [i, step] of steps.entries()) {
    await expect(page.getByTestId(`checklist-${step}`).getByRole('link')).toHaveAttribute(
      'href',
      `${base}/${hrefs[i]}`,
    );
  }
  await expect(checklist.getByRole('button', { name: 'Dismiss' })).toHaveCount(0);

  // Subjects, a video and a run: ticked as the dashboard opens again.
  const subject = await createSubject(request, owner, project.project_uuid, 'F1');
  const place = await uploadReadyVideo(
    request,
    owner,
    project.project_uuid,
    subject.subject_uuid,
    testVideoPath(),
    'V',
  );
  const { analysisUuid } = await importRunWithEvents(request, owner, place, [30], FRAMES);
  await sidebarLink(page, 'Subjects').click();
  await sidebarLink(page, 'Home').click();
  await expect(checklist).toContainText('3 of 5 steps done');
  for (const step of ['subjects', 'upload', 'detect'] as const) {
    await expect(page.getByTestId(`checklist-${step}`)).toHaveAttribute('data-done', 'true');
  }
  await expect(page.getByTestId('checklist-upload')).toContainText('1 video ready');

  // Review: flag the event in Quick Score; export: the project summary from Analysis Logs.
  await page.goto(quickScoreUrl(place, analysisUuid));
  await expect(page.getByTestId('event-position')).toHaveText('Event 1 of 1');
  await page.keyboard.press('f');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await page.goto(`${base}/analysis-logs`);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export the project summary as CSV' }).click();
  await download;
  await sidebarLink(page, 'Home').click();
  await expect(checklist).toContainText('All done');
  await checklist.getByRole('button', { name: 'Dismiss' }).click();
  await expect(checklist).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Fresh lab' })).toBeVisible();
  await expect(checklist).toHaveCount(0);
});

test('an invitation link opened signed out names the project and the inviter, with the e-mail filled in', async ({
  browser,
  request,
}) => {
  const owner = await createUser(request, 'Ada');
  const project = await createProject(request, owner, 'Twitch atlas');
  const email = `invitee-${randomUUID().slice(0, 8)}@example.com`;
  const invited = await request.post(`/api/projects/${project.project_uuid}/invitations/`, {
    headers: { Authorization: `Bearer ${owner.access}` },
    data: { email, role: 'member' },
  });
  const { invitation_uuid } = (await invited.json()) as { invitation_uuid: string };

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`/auth/accept-invite/${project.project_uuid}/${invitation_uuid}`);
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByRole('heading', { name: 'Join Twitch atlas' })).toBeVisible();
  await expect(page.getByTestId('invitation-intro')).toHaveText(
    `Ada User invited ${email} to the project Twitch atlas. Sign in with that address to join, or create an account with it.`,
  );
  await expect(page.getByLabel('E-mail')).toHaveValue(email);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/auth\/register$/);
  await expect(page.getByRole('heading', { name: 'Join Twitch atlas' })).toBeVisible();
  await expect(page.getByLabel('E-mail')).toHaveValue(email);
  await expect(page.getByTestId('invitation-intro')).toContainText('Create your account with that address');

  // A wrong link shows nothing of any project: the plain sign-in.
  await page.goto(`/auth/accept-invite/${project.project_uuid}/${randomUUID()}`);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByTestId('invitation-intro')).toHaveCount(0);
  await expect(page.getByLabel('E-mail')).toHaveValue('');
  await expect(page.getByText('Twitch atlas')).toHaveCount(0);
  await context.close();
});

test('the project switcher says what its numbers are, and switching lands on the dashboard', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Switcher');
  const a = await createProject(request, owner, 'Study A');
  const b = await createProject(request, owner, 'Study B');
  await signIn(page, owner, { activeProjectUuid: a.project_uuid });
  await page.goto(`/projects/${a.project_uuid}/subjects`);
  await page.getByRole('button', { name: 'Switch project' }).click();
  await expect(page.getByText('press a number to switch')).toBeVisible();
  await expect(page.getByTitle('Press 2 to switch to this project')).toBeVisible();
  await page.getByTestId('switcher-project').filter({ hasText: 'Study B' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { name: 'Study B' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('activeProjectUuid'))).toBe(b.project_uuid);

  // The digit does the same.
  await page.getByRole('button', { name: 'Switch project' }).click();
  await page.keyboard.press('1');
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { name: 'Study A' })).toBeVisible();
});
