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
