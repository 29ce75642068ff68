import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { longSceneVideoPath, uploadReadyVideo, type VideoPlace } from '../support/analysis';
import {
  COLD_PAGE,
  createProject,
  createSubject,
  createUser,
  expect,
  signIn,
  type TestProject,
  type TestUser,
  test,
} from '../support/fixtures';

test.describe.configure({ mode: 'serial' });

const FPS = 30;
const FRAME = 1 / FPS;
const SECONDS = 40;
const RULER = 22;
const LANE = 30;
const GAP = 2;

let owner: TestUser;
let project: TestProject;
let subjectUuid = '';

type Ranges = [number, number][];

const auth = (user: TestUser) => ({ Authorization: `Bearer ${user.access}` });
const annotationsUrl = (video: VideoPlace) =>
  `/api/projects/${video.projectUuid}/subjects/${video.subjectUuid}/videos/${video.videoUuid}/annotations/`;

async function newVideo(request: APIRequestContext, name: string) {
  return uploadReadyVideo(request, owner, project.project_uuid, subjectUuid, longSceneVideoPath(SECONDS), name);
}

async function createTrack(request: APIRequestContext, video: VideoPlace, name: string, hotkey?: string) {
  const response = await request.post(`${annotationsUrl(video)}config/`, {
    headers: auth(owner),
    data: { name, ...(hotkey ? { hotkey } : {}) },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).annotation_config_uuid as string;
}

async function rangesOf(request: APIRequestContext, video: VideoPlace, track: string): Promise<Ranges> {
  const response = await request.get(`${annotationsUrl(video)}${track}/`, { headers: auth(owner) });
  expect(response.ok()).toBe(true);
  return (await response.json()).ranges;
}

async function openAnnotator(page: Page, video: VideoPlace) {
  await page.goto(`/projects/${video.projectUuid}/annotator?subject=${video.subjectUuid}&video=${video.videoUuid}`);
  await expect(page.getByRole('heading', { name: 'Annotator' })).toBeVisible(COLD_PAGE);
  await expect
    .poll(() => page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.readyState))
    .toBeGreaterThanOrEqual(2);
  await page.getByTestId('timeline-canvas').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('timeline-canvas')).toBeInViewport();
}

/** Where time `seconds` is on lane `lane` while the timeline shows the whole video. */
async function laneAt(page: Page, lane: number, seconds: number) {
  const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
  return { x: box.x + (seconds / SECONDS) * box.width, y: box.y + RULER + lane * (LANE + GAP) + LANE / 2 };
}

async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
}

const saved = (page: Page) => expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
const shownFrame = (page: Page) =>
  page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => Math.floor(v.currentTime * 30 + 1e-6));
const isFrameTime = (time: number) => Math.abs(time * FPS - Math.round(time * FPS)) < 1e-6;

test.beforeAll(async ({ request }) => {
  owner = await createUser(request, 'Ada');
  project = await createProject(request, owner, 'Grooming study');
  subjectUuid = (await createSubject(request, owner, project.project_uuid, 'M3')).subject_uuid;
});

test('a hot key marks a bout while the video plays: start and stop within one frame of the presses', async ({
  page,
  request,
}) => {
  const video = await newVideo(request, 'keys');
  const track = await createTrack(request, video, 'Grooming', 'g');
  await signIn(page, owner, { activeProjectUuid: project.project_uuid });
  await openAnnotator(page, video);
  // The video's time at each press of G, read before the page handles the key.
  await page.evaluate(() => {
    const times: number[] = [];
    (window as unknown as { pressTimes: number[] }).pressTimes = times;
    window.addEventListener(
      'keydown',
      (event) => {
        if (event.key !== 'g') return;
        times.push((document.querySelector('[data-testid="video-element"]') as HTMLVideoElement).currentTime);
      },
      { capture: true },
    );
  });
  const videoTime = () => page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.currentTime);

  await page.keyboard.press(' ');
  await expect.poll(videoTime).toBeGreaterThan(1);
  await page.keyboard.press('g');
  const started = await videoTime();
  await expect.poll(videoTime).toBeGreaterThan(started + 1.2);
  await page.keyboard.press('g');
  await page.keyboard.press(' ');
  await saved(page);

  const [first, second] = await page.evaluate(() => (window as unknown as { pressTimes: number[] }).pressTimes);
  const ranges = await rangesOf(request, video, track);
  expect(ranges).toHaveLength(1);
  const [start, end] = ranges[0]!;
  expect(isFrameTime(start) && isFrameTime(end)).toBe(true);
  expect(Math.abs(start - first!)).toBeLessThanOrEqual(FRAME + 1e-6);
  expect(Math.abs(end - second!)).toBeLessThanOrEqual(FRAME + 1e-6);
  await expect(page.getByTestId('track-figures')).toHaveText(/^1 bout/);
});

test('a drag draws a bout; dragging its edge shows that frame and moves it; Delete removes it; Ctrl+Z brings it back', async ({
  page,
  request,
}) => {
  const video = await newVideo(request, 'mouse');
  const track = await createTrack(request, video, 'Rearing', 'r');
  await signIn(page, owner, { activeProjectUuid: project.project_uuid });
  await openAnnotator(page, video);

  // Draw from 10 s to 14 s on the track's lane.
  await drag(page, await laneAt(page, 0, 10), await laneAt(page, 0, 14));
  await expect(page.getByTestId('selected-bout')).toContainText('Rearing');
  await saved(page);
  let ranges = await rangesOf(request, video, track);
  expect(ranges).toHaveLength(1);
  const [start, end] = ranges[0]!;
  expect(isFrameTime(start) && isFrameTime(end)).toBe(true);
  expect(start).toBeCloseTo(10, 0);
  expect(end).toBeCloseTo(14, 0);

  // Drag the end edge to about 18 s: while the button is held, the video shows the frame the edge is on.
  const edge = await laneAt(page, 0, end);
  const target = await laneAt(page, 0, 18);
  await page.mouse.move(edge.x, edge.y);
  await page.mouse.down();
  await page.mouse.move(target.x, target.y, { steps: 10 });
  await expect.poll(() => shownFrame(page)).toBeGreaterThan(Math.round(end * FPS) + 60);
  const frameWhileDragging = await shownFrame(page);
  await expect(page.getByTestId('player-frame')).toContainText(`frame ${frameWhileDragging}`);
  await page.mouse.up();
  await saved(page);
  ranges = await rangesOf(request, video, track);
  expect(ranges).toEqual([[start, frameWhileDragging / FPS]]);

  // Select by clicking inside, delete, undo.
  const middle = await laneAt(page, 0, (start + frameWhileDragging / FPS) / 2);
  await page.mouse.click(middle.x, middle.y);
  await expect(page.getByTestId('selected-bout')).toHaveAttribute('data-end', String(frameWhileDragging / FPS));
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('track-figures')).toHaveText(/^0 bouts/);
  await saved(page);
  expect(await rangesOf(request, video, track)).toEqual([]);
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('track-figures')).toHaveText(/^1 bout/);
  await saved(page);
  expect(await rangesOf(request, video, track)).toEqual([[start, frameWhileDragging / FPS]]);
});

test('a CSV with a bad row is refused with its spec §5 message; a good one is imported', async ({ page, request }) => {
  const video = await newVideo(request, 'import');
  const track = await createTrack(request, video, 'Sniffing');
  await signIn(page, owner, { activeProjectUuid: project.project_uuid });
  await openAnnotator(page, video);

  const importFile = async (name: string, content: string) => {
    await page.getByRole('button', { name: 'Actions for Sniffing' }).click();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('menuitem', { name: 'Import CSV…' }).click();
    await (await chooser).setFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content) });
  };
  await importFile('bad.csv', 'start,end\n1,2\n3,2.5\n');
  await expect(page.getByTestId('import-error')).toContainText('Row 2 must have start time less than the end time.');
  expect(await rangesOf(request, video, track)).toEqual([]);

  await importFile('good.csv', 'start,end\n1,2\n3,4.5\n');
  await expect(page.getByText('Imported 2 bouts into "Sniffing".')).toBeVisible();
  await expect(page.getByTestId('track-figures')).toHaveText(/^2 bouts/);
  expect(await rangesOf(request, video, track)).toEqual([
    [1, 2],
    [3, 4.5],
  ]);
});

test('a track exported as CSV imports back on the same frames; the tracks export as BORIS events', async ({
  page,
  request,
}) => {
  const video = await newVideo(request, 'export');
  const source = await createTrack(request, video, 'Freezing');
  const ranges: Ranges = [
    [7 * FRAME, 40 * FRAME],
    [40 * FRAME, 77 * FRAME],
    [10.1 + 0.2, 12.345678901],
    [30, 1199 * FRAME],
  ];
  const put = await request.put(`${annotationsUrl(video)}${source}/`, {
    headers: auth(owner),
    data: { ranges, version: 0 },
  });
  expect(put.ok(), await put.text()).toBe(true);
  const copy = await createTrack(request, video, 'Freezing again');
  await signIn(page, owner, { activeProjectUuid: project.project_uuid });
  await openAnnotator(page, video);

  await page.getByRole('button', { name: 'Actions for Freezing', exact: true }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Export CSV' }).click();
  const file = path.join(tmpdir(), `annotator-${Date.now()}-${(await download).suggestedFilename()}`);
  await (await download).saveAs(file);
  expect(readFileSync(file, 'utf8').split('\r\n')[0]).toBe('start,end');

  await page.getByRole('button', { name: 'Actions for Freezing again' }).click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('menuitem', { name: 'Import CSV…' }).click();
  await (await chooser).setFiles(file);
  await expect(page.getByText('Imported 4 bouts into "Freezing again".')).toBeVisible();
  // The file holds microseconds: a bout on frames comes back on exactly those frames' starts, any other time to the
  // microsecond.
  expect(await rangesOf(request, video, copy)).toEqual([
    [7 / FPS, 40 / FPS],
    [40 / FPS, 77 / FPS],
    [10.3, 12.345679],
    [30, 1199 / FPS],
  ]);
  rmSync(file, { force: true });

  // Both tracks as BORIS's aggregated events: a state event per bout, the track as the behaviour, by start time.
  const boris = page.waitForEvent('download');
  await page.getByRole('button', { name: 'BORIS (TSV)' }).click();
  const [header, ...events] = readFileSync((await (await boris).path())!, 'utf8')
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split('\t'));
  const cell = (cells: string[], column: string) => cells[header!.indexOf(column)];
  expect(header!.slice(0, 2)).toEqual(['Observation id', 'Observation date']);
  expect(events).toHaveLength(8);
  for (const track of ['Freezing', 'Freezing again']) {
    expect(events.filter((cells) => cell(cells, 'Behavior') === track)).toHaveLength(4);
  }
  expect(events.every((cells) => cell(cells, 'Behavior type') === 'STATE')).toBe(true);
  const starts = events.map((cells) => Number(cell(cells, 'Start (s)')));
  expect(starts).toEqual([...starts].sort((a, b) => a - b));
  expect(starts[0]).toBeCloseTo(7 / FPS, 6);
  expect(Number(cell(events[0]!, 'Stop (s)'))).toBeCloseTo(40 / FPS, 6);
});

test('a change the server cannot take stays queued in the browser, through a reload, until it is saved', async ({
  page,
  request,
  allowConsole,
}) => {
  allowConsole(/Failed to load resource|ERR_FAILED/);
  const video = await newVideo(request, 'offline');
  const track = await createTrack(request, video, 'Digging', 'd');
  await signIn(page, owner, { activeProjectUuid: project.project_uuid });
  await openAnnotator(page, video);
  // The server is out of reach for changes of the track's bouts.
  const rangesCall = `**${annotationsUrl(video)}${track}/`;
  await page.route(rangesCall, (route) => (route.request().method() === 'PATCH' ? route.abort() : route.fallback()));

  await drag(page, await laneAt(page, 0, 12), await laneAt(page, 0, 16));
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'unsaved');
  await expect(page.getByTestId('save-status')).toContainText('Not saved yet');
  await page.reload();
  await openAnnotator(page, video);
  // Still not on the server, still shown, still waiting.
  await expect(page.getByTestId('track-figures')).toHaveText(/^1 bout/);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'unsaved');
  expect(await rangesOf(request, video, track)).toEqual([]);

  await page.unroute(rangesCall);
  await page.getByRole('button', { name: 'Retry now' }).click();
  await saved(page);
  const ranges = await rangesOf(request, video, track);
  expect(ranges).toHaveLength(1);
  expect(ranges[0]![0]).toBeCloseTo(12, 0);
  expect(ranges[0]![1]).toBeCloseTo(16, 0);
});

test('two tabs marking the same track lose no change', async ({ page, request, allowConsole }) => {
  // The second tab's save is answered 409 (it was based on an older version) and re-applied: the browser logs it.
  allowConsole(/status of 409/);
  const video = await newVideo(request, 'tabs');
  const track = await createTrack(request, video, 'Twitch', 't');
  await signIn(page, owner, { activeProjectUuid: project.project_uuid });
  const second = await page.context().newPage();
  await openAnnotator(page, video);
  await openAnnotator(second, video);

  await drag(page, await laneAt(page, 0, 5), await laneAt(page, 0, 8));
  await saved(page);
  // The second tab still holds the version before the first tab's bout: its save is refused, then re-applied.
  const conflict = second.waitForResponse((response) => response.status() === 409);
  await drag(second, await laneAt(second, 0, 20), await laneAt(second, 0, 24));
  await conflict;
  await expect(second.getByText('Someone else changed "Twitch" while you worked')).toBeVisible();
  await saved(second);
  await expect(second.getByTestId('track-figures')).toHaveText(/^2 bouts/);

  const ranges = await rangesOf(request, video, track);
  expect(ranges).toHaveLength(2);
  expect(ranges[0]![0]).toBeCloseTo(5, 0);
  expect(ranges[1]![0]).toBeCloseTo(20, 0);
  await page.reload();
  await expect(page.getByTestId('track-figures')).toHaveText(/^2 bouts/);
  await second.close();
});

test('a viewer sees the bouts and cannot change anything', async ({ page, request }) => {
  const video = await newVideo(request, 'viewer');
  const track = await createTrack(request, video, 'Grooming', 'g');
  await request.put(`${annotationsUrl(video)}${track}/`, {
    headers: auth(owner),
    data: { ranges: [[10, 15]], version: 0 },
  });
  const viewer = await createUser(request, 'Vic');
  const invited = await request.post(`/api/projects/${project.project_uuid}/invitations/`, {
    headers: auth(owner),
    data: { email: viewer.email, role: 'viewer' },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const { invitation_uuid } = await invited.json();
  const accepted = await request.post(`/api/projects/${project.project_uuid}/invitations/${invitation_uuid}/accept/`, {
    headers: auth(viewer),
  });
  expect(accepted.ok(), await accepted.text()).toBe(true);

  await signIn(page, viewer, { activeProjectUuid: project.project_uuid });
  await openAnnotator(page, video);
  await expect(page.getByTestId('track-figures')).toHaveText(/^1 bout/);
  await expect(page.getByRole('button', { name: 'New track' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Undo' })).toHaveCount(0);

  // Keys, a drag, a click and Delete change nothing.
  await page.keyboard.press('g');
  await page.keyboard.press('g');
  await drag(page, await laneAt(page, 0, 20), await laneAt(page, 0, 25));
  const inside = await laneAt(page, 0, 12);
  await page.mouse.click(inside.x, inside.y);
  await expect(page.getByTestId('selected-bout')).toContainText('Grooming');
  await page.keyboard.press('Delete');
  await page.keyboard.press('Control+z');
  await page.getByRole('button', { name: 'Actions for Grooming' }).click();
  await expect(page.getByRole('menuitem', { name: 'Export CSV' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Import CSV…' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'Delete track' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  await expect(page.getByTestId('track-figures')).toHaveText(/^1 bout/);
  await saved(page);
  expect(await rangesOf(request, video, track)).toEqual([[10, 15]]);
});
