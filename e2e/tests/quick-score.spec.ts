import type { Page } from '@playwright/test';
import { uploadReadyVideo, type VideoPlace } from '../support/analysis';
import { createProject, createSubject, createUser, expect, signIn, type TestUser, test } from '../support/fixtures';
import {
  type ApiEvent,
  CODED,
  codedVideoPath,
  importRunWithEvents,
  quickScoreUrl,
  serverEvents,
  shownFrame,
} from '../support/quick-score';

test.describe.configure({ mode: 'serial' });

/** 20 events, 1 s apart from frame 45 (1.5 s) on: events i at frame 45 + 30 i. */
const EVENT_FRAMES = Array.from({ length: 20 }, (_, i) => 45 + 30 * i);
const FRAME = 1 / CODED.fps;

let member: TestUser;
let viewer: TestUser;
let place: VideoPlace;

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  member = await createUser(request, 'Rosa');
  viewer = await createUser(request, 'Victor');
  const project = await createProject(request, member, 'Twitch scoring');
  const subject = await createSubject(request, member, project.project_uuid, 'P8-03');
  place = await uploadReadyVideo(
    request,
    member,
    project.project_uuid,
    subject.subject_uuid,
    codedVideoPath(),
    'coded',
  );
  const headers = { Authorization: `Bearer ${member.access}` };
  for (const name of ['left hand', 'right hand', 'left hind paw', 'tail']) {
    const created = await request.post(`/api/projects/${project.project_uuid}/labels/`, { headers, data: { name } });
    expect(created.status(), await created.text()).toBe(201);
  }
  const invited = await request.post(`/api/projects/${project.project_uuid}/invitations/`, {
    headers,
    data: { email: viewer.email, role: 'viewer' },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const { invitation_uuid } = (await invited.json()) as { invitation_uuid: string };
  const accepted = await request.post(`/api/projects/${project.project_uuid}/invitations/${invitation_uuid}/accept/`, {
    headers: { Authorization: `Bearer ${viewer.access}` },
  });
  expect(accepted.ok(), await accepted.text()).toBe(true);
});

async function openRun(page: Page, user: TestUser, analysisUuid: string) {
  await signIn(page, user, { activeProjectUuid: place.projectUuid });
  await page.goto(quickScoreUrl(place, analysisUuid));
  await expect(page.getByTestId('event-position')).toHaveText(/^Event \d+ of \d+$/);
}

/** Waits until the clip has played to its end and the player rests, paused, on a frame. */
async function clipRests(page: Page) {
  await expect
    .poll(() =>
      page
        .getByTestId('video-element')
        .evaluate((v: HTMLVideoElement) => v.paused && !v.seeking && v.readyState >= 2 && v.played.length > 0),
    )
    .toBe(true);
}

const byId = (events: ApiEvent[], id: number) => events.find((e) => e.id === id)!;

test('keyboard review of 20 events: discard, flag, labels, move, add, undo — each on the server at once; reload resumes', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const { analysisUuid } = await importRunWithEvents(request, member, place, EVENT_FRAMES, CODED.frames);
  const server = () => serverEvents(request, member, place, analysisUuid);
  const initial = (await server()).events;
  expect(initial.map((e) => Math.round(e.time * CODED.fps))).toEqual(EVENT_FRAMES);
  const ids = initial.map((e) => e.id);

  await openRun(page, member, analysisUuid);
  await expect(page.getByTestId('event-position')).toHaveText('Event 1 of 20');
  await expect(page.getByTestId('review-progress')).toHaveText('0 of 20');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

  // The clip plays at once, stops at its end, and rests on exactly the event's frame.
  await clipRests(page);
  expect(await shownFrame(page)).toBe(EVENT_FRAMES[0]);

  // D discards event 1: on the server right after the key press.
  await page.keyboard.press('d');
  await expect.poll(async () => byId((await server()).events, ids[0]!).discarded).toBe(true);
  await expect(page.getByTestId('event-state')).toContainText('Discarded');

  // → moves on (event 1 is now reviewed), F flags event 2.
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('event-position')).toHaveText('Event 2 of 20');
  await page.keyboard.press('f');
  await expect.poll(async () => byId((await server()).events, ids[1]!).flagged).toBe(true);
  expect(byId((await server()).events, ids[0]!).reviewed_by?.display_name).toContain('Rosa');
  await clipRests(page);
  expect(await shownFrame(page)).toBe(EVENT_FRAMES[1]);

  // Shift opens the label menu: "lh" finds "left hand", Enter picks it.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift');
  const menu = page.getByTestId('label-menu');
  await expect(menu).toBeVisible();
  await page.keyboard.type('lh');
  await expect(menu.getByRole('option').first()).toHaveText(/^left hand/);
  await page.keyboard.press('Enter');
  await expect(menu).toBeHidden();
  await expect.poll(async () => byId((await server()).events, ids[2]!).label).toBe('left hand');

  // Shift+Enter saves a new label, on the event and in the project's labels.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift');
  await page.keyboard.type('nose poke');
  await expect(menu.getByTestId('label-menu-create')).toContainText('nose poke');
  await page.keyboard.press('Shift+Enter');
  await expect.poll(async () => byId((await server()).events, ids[3]!).label).toBe('nose poke');
  const labels = await request.get(`/api/projects/${place.projectUuid}/labels/?search=nose`, {
    headers: { Authorization: `Bearer ${member.access}` },
  });
  expect(((await labels.json()) as { results: { name: string }[] }).results.map((l) => l.name)).toEqual(['nose poke']);
  // Escape closes the menu and changes nothing.
  await page.keyboard.press('Shift');
  await page.keyboard.type('tail');
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  expect(byId((await server()).events, ids[3]!).label).toBe('nose poke');

  // Alt+→ moves event 5 a frame later; dragging the centre line moves it 6 frames earlier, snapped to a frame.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Alt+ArrowRight');
  const fifth = EVENT_FRAMES[4]!;
  await expect.poll(async () => Math.round(byId((await server()).events, ids[4]!).time * CODED.fps)).toBe(fifth + 1);
  const plot = page.getByTestId('event-trace').locator('.u-over');
  await plot.scrollIntoViewIfNeeded();
  const box = (await plot.boundingBox())!;
  // The trace shows the clip ±1 s: 3.033 s around the event.
  const span = 0.5 + 1;
  const xOf = (seconds: number) => box.x + ((seconds + span) / (2 * span)) * box.width;
  await page.mouse.move(xOf(0), box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(xOf(-6 * FRAME) - 5, box.y + box.height / 2, { steps: 5 });
  await page.mouse.move(xOf(-7 * FRAME), box.y + box.height / 2, { steps: 3 });
  await page.mouse.up();
  await expect
    .poll(async () => Math.round(byId((await server()).events, ids[4]!).time * CODED.fps))
    .toBe(fifth + 1 - 7);
  const moved = byId((await server()).events, ids[4]!);
  expect(moved.time * CODED.fps).toBeCloseTo(Math.round(moved.time * CODED.fps), 9);
  expect(moved.original_time).toBeCloseTo(fifth / CODED.fps, 9);

  // Ctrl+Z undoes the drag: back where Alt+→ put it.
  await page.keyboard.press('Control+z');
  await expect.poll(async () => Math.round(byId((await server()).events, ids[4]!).time * CODED.fps)).toBe(fifth + 1);

  // Alt+drag adds an event 20 frames after event 5; on top of event 5 it is refused.
  await page.keyboard.down('Alt');
  await page.mouse.move(xOf(0.002), box.y + box.height / 3);
  await page.mouse.down();
  await page.mouse.up();
  await page.keyboard.up('Alt');
  await expect(page.getByTestId('trace-message')).toHaveText(/There is already an event at/);
  await page.keyboard.down('Alt');
  await page.mouse.move(xOf(18 * FRAME), box.y + box.height / 3);
  await page.mouse.down();
  await page.mouse.move(xOf(19 * FRAME), box.y + box.height / 3, { steps: 3 });
  await page.mouse.up();
  await page.keyboard.up('Alt');
  await expect.poll(async () => (await server()).events.length).toBe(21);
  const added = (await server()).events.find((e) => e.original_time === null)!;
  expect(Math.round(added.time * CODED.fps)).toBe(fifth + 1 + 19);
  await expect(page.getByTestId('event-position')).toHaveText('Event 6 of 21');
  await expect(page.getByTestId('event-state')).toContainText('Added by hand');

  // Undo the add: the event is gone from the server.
  await page.keyboard.press('Control+z');
  await expect.poll(async () => (await server()).events.length).toBe(20);

  // The rest by U and arrows: every event reviewed.
  await expect(page.getByTestId('event-position')).toHaveText('Event 6 of 20');
  await page.keyboard.press('u');
  await expect(page.getByTestId('event-position')).toHaveText('Event 7 of 20');
  for (let n = 8; n <= 20; n++) {
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('event-position')).toHaveText(`Event ${n} of 20`);
  }
  await expect(page.getByTestId('review-progress')).toHaveText('19 of 20');
  await page.keyboard.press('u');
  await expect(page.getByTestId('review-progress')).toHaveText('20 of 20');
  await expect.poll(async () => (await server()).events.filter((e) => e.reviewed_by).length).toBe(20);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

  // Reload: the page resumes at the same event (kept on the server).
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('event-position')).toHaveText('Event 19 of 20');
  // The position is kept on the server once the reviewer settles on an event.
  const kept = page.waitForResponse(
    (r) =>
      r.request().method() === 'PUT' &&
      r.url().includes('/review-position/') &&
      (r.request().postDataJSON() as { event_id: number }).event_id === ids[17] &&
      r.ok(),
  );
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('event-position')).toHaveText('Event 18 of 20');
  await kept;
  await page.reload();
  await expect(page.getByTestId('event-position')).toHaveText('Event 18 of 20');
});

test('two tabs on the same run lose no action; a change made on a value the other tab changed is refused with what changed', async ({
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const { analysisUuid } = await importRunWithEvents(request, member, place, EVENT_FRAMES.slice(0, 6), CODED.frames);
  const server = () => serverEvents(request, member, place, analysisUuid);
  const ids = (await server()).events.map((e) => e.id);
  const first = await context.newPage();
  const second = await context.newPage();
  await openRun(first, member, analysisUuid);
  await openRun(second, member, analysisUuid);
  for (const tab of [first, second]) await expect(tab.getByTestId('event-position')).toHaveText('Event 1 of 6');

  // The first tab discards event 1; the second, which has not seen that, flags it: both are kept.
  await first.bringToFront();
  await first.keyboard.press('d');
  await expect.poll(async () => (await server()).events[0]!.discarded).toBe(true);
  await second.bringToFront();
  await second.keyboard.press('f');
  await expect.poll(async () => (await server()).events[0]!.flagged).toBe(true);
  expect((await server()).events[0]!.discarded).toBe(true);
  await expect(second.getByTestId('review-notices')).toContainText('applied on top of theirs');
  await expect(second.getByTestId('event-state')).toContainText('Discarded');

  // Both label event 2: the second tab's label was chosen over a label it never saw, so it is refused and said.
  for (const tab of [first, second]) {
    await tab.bringToFront();
    await tab.keyboard.press('ArrowRight');
    await expect(tab.getByTestId('event-position')).toHaveText('Event 2 of 6');
  }
  await first.bringToFront();
  await first.keyboard.press('Shift');
  await first.keyboard.type('tail');
  await first.keyboard.press('Enter');
  await expect.poll(async () => byId((await server()).events, ids[1]!).label).toBe('tail');
  await second.bringToFront();
  await second.keyboard.press('Shift');
  await second.keyboard.type('rh');
  await second.keyboard.press('Enter');
  await expect(second.getByTestId('review-notices')).toContainText(
    /labelled the event at 0:00:02\.500 “tail”; your label “right hand” was not saved/,
  );
  await expect(second.getByTestId('event-label')).toHaveText('tail');
  // …while its other changes on the same event still count.
  await second.keyboard.press('d');
  await expect.poll(async () => byId((await server()).events, ids[1]!).discarded).toBe(true);

  // A save that fails stays queued — across a reload of the tab — and is sent once the server answers again.
  await first.bringToFront();
  await first.route('**/analysis/update-events/', (route) => route.abort('connectionrefused'));
  await first.keyboard.press('ArrowRight');
  await first.keyboard.press('f');
  await expect(first.getByTestId('save-status')).toHaveAttribute('data-state', 'unsaved');
  await expect(first.getByTestId('save-status')).toContainText('Not saved yet');
  expect(byId((await server()).events, ids[2]!).flagged).toBe(false);
  // Closing or reloading asks first, and the action survives the reload.
  const warned = new Promise<string>((resolve) => {
    first.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.accept();
    });
  });
  await first.reload();
  expect(await warned).toBe('beforeunload');
  await expect(first.getByTestId('review-notices')).toContainText('1 unsaved change from your last visit');
  await expect(first.getByTestId('save-status')).toHaveAttribute('data-state', 'unsaved');
  await first.unroute('**/analysis/update-events/');
  // "Retry now" sends at once; on a slow machine the queue's own retry may come first and the button goes away.
  await Promise.race([
    first
      .getByRole('button', { name: 'Retry now' })
      .click()
      .catch(() => undefined),
    expect(first.getByTestId('save-status')).toHaveAttribute('data-state', 'saved', { timeout: 60_000 }),
  ]);
  await expect(first.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  expect(byId((await server()).events, ids[2]!).flagged).toBe(true);

  const final = (await server()).events;
  expect(final.slice(0, 3).map((e) => [e.discarded, e.flagged, e.label])).toEqual([
    [true, true, null],
    [true, false, 'tail'],
    [false, true, null],
  ]);
});

test('a viewer watches and steps through but cannot change anything', async ({ page, request }) => {
  const { analysisUuid } = await importRunWithEvents(request, member, place, EVENT_FRAMES.slice(0, 4), CODED.frames);
  const server = () => serverEvents(request, member, place, analysisUuid);
  const before = await server();
  await openRun(page, viewer, analysisUuid);
  await expect(page.getByTestId('read-only-note')).toBeVisible();
  for (const name of ['Discard', 'Flag', 'Label…', 'Undo', 'Redo']) {
    await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await clipRests(page);
  expect(await shownFrame(page)).toBe(EVENT_FRAMES[0]);

  // Editing keys are inert; stepping works.
  for (const key of ['d', 'f', 'Alt+ArrowRight', 'Control+z']) await page.keyboard.press(key);
  await page.keyboard.press('Shift');
  await expect(page.getByTestId('label-menu')).toHaveCount(0);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('event-position')).toHaveText('Event 2 of 4');
  await page.keyboard.press('u');
  await expect(page.getByTestId('event-position')).toHaveText('Event 3 of 4');
  // Dragging the centre line does nothing either.
  const plot = page.getByTestId('event-trace').locator('.u-over');
  await plot.scrollIntoViewIfNeeded();
  const box = (await plot.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 4, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  expect(await server()).toEqual(before);

  // And the server refuses a viewer's change outright.
  const refused = await request.post(
    `/api/projects/${place.projectUuid}/subjects/${place.subjectUuid}/videos/${place.videoUuid}/analysis/update-events/`,
    {
      headers: { Authorization: `Bearer ${viewer.access}` },
      data: { analysis_uuid: analysisUuid, version: before.version, changes: [{ action: 'review', id: 1 }] },
    },
  );
  expect(refused.status()).toBe(403);
});

test('the speed keys set the playback rate; Space replays the clip from its start; keys in a field are the field’s', async ({
  page,
  request,
}) => {
  const { analysisUuid } = await importRunWithEvents(request, member, place, EVENT_FRAMES.slice(0, 3), CODED.frames);
  await openRun(page, member, analysisUuid);
  const video = () => page.getByTestId('video-element');
  const rate = () => video().evaluate((v: HTMLVideoElement) => v.playbackRate);
  await page.keyboard.press('.');
  expect(await rate()).toBe(0.5);
  await page.keyboard.press('/');
  expect(await rate()).toBe(0.25);
  await page.keyboard.press(',');
  expect(await rate()).toBe(1);
  await page.keyboard.press('.');
  // The rate stays with the next clip (which plays on the other, preloaded element).
  await clipRests(page);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('event-position')).toHaveText('Event 2 of 3');
  expect(await rate()).toBe(0.5);
  await page.keyboard.press(',');

  // Space: the first frame shown after the press is the clip's first (0.5 s before the event), then it plays on and
  // rests on the event's frame again.
  await clipRests(page);
  const clipStart = EVENT_FRAMES[1]! - 15;
  // Listening before the key press: the first frame composited after it.
  await video().evaluate((v: HTMLVideoElement) => {
    (window as unknown as { firstShown: Promise<number> }).firstShown = new Promise<number>((resolve) =>
      v.requestVideoFrameCallback((_now, metadata) => resolve(metadata.mediaTime)),
    );
  });
  await page.keyboard.press(' ');
  const firstShown = page.evaluate(() => (window as unknown as { firstShown: Promise<number> }).firstShown);
  expect(Math.round((await firstShown) * CODED.fps)).toBe(clipStart);
  await expect.poll(() => video().evaluate((v: HTMLVideoElement) => !v.paused)).toBe(true);
  await clipRests(page);
  expect(await shownFrame(page)).toBe(EVENT_FRAMES[1]);

  // With the clip-length select focused, D is the select's, not a discard.
  await page.getByLabel('Clip').focus();
  await page.keyboard.press('d');
  await expect(page.getByTestId('event-state')).not.toContainText('Discarded');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
});

test('the dashboard, the Movement Detector’s result and /quick-score lead to the newest run; no event before 0 s', async ({
  page,
  request,
}) => {
  // Events at 0.5 s and 1.5 s: the first one's trace starts at −1 s.
  const { analysisUuid } = await importRunWithEvents(request, member, place, [15, 45], CODED.frames);
  await signIn(page, member, { activeProjectUuid: place.projectUuid });
  // Nothing named: the project's newest finished run.
  await page.goto('/quick-score');
  await expect(page).toHaveURL(quickScoreUrl(place, analysisUuid));
  await expect(page.getByTestId('event-position')).toHaveText('Event 1 of 2');

  // Alt+drag before 0 s is refused with a message, and nothing is added.
  const plot = page.getByTestId('event-trace').locator('.u-over');
  await plot.scrollIntoViewIfNeeded();
  const box = (await plot.boundingBox())!;
  await page.keyboard.down('Alt');
  await page.mouse.move(box.x + box.width * 0.1, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.12, box.y + box.height / 2, { steps: 2 });
  await page.mouse.up();
  await page.keyboard.up('Alt');
  await expect(page.getByTestId('trace-message')).toHaveText('An event cannot be before 0 s.');
  expect((await serverEvents(request, member, place, analysisUuid)).events).toHaveLength(2);

  await page.goto('/');
  const newest = page.getByTestId('recent-analysis').first();
  await expect(newest).toContainText('2 detected · 2 kept');
  await newest.getByRole('link', { name: /Quick Score/ }).click();
  await expect(page).toHaveURL(quickScoreUrl(place, analysisUuid));

  await page.goto(
    `/projects/${place.projectUuid}/movement-detector?subject=${place.subjectUuid}&video=${place.videoUuid}&run=${analysisUuid}`,
  );
  await page.getByRole('link', { name: 'Review in Quick Score' }).click();
  await expect(page).toHaveURL(quickScoreUrl(place, analysisUuid));
  await expect(page.getByTestId('event-position')).toHaveText('Event 1 of 2');
});
