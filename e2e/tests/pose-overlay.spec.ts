import type { Page } from '@playwright/test';
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
import {
  atFrame,
  overlayLikelihood as likelihood,
  overlayCsv,
  OVERLAY_PARTS as PARTS,
  overlayPosition as position,
  videoLoaded,
} from '../support/pose';
import { CODED, codedVideoPath, importRunWithEvents, quickScoreUrl, shownFrame } from '../support/quick-score';

/** The parts drawn at `frame` with the likelihood cutoff `cutoff`, by the rule: likelihood ≥ cutoff. */
const expectedParts = (frame: number, cutoff: number, hidden: string[] = []) =>
  PARTS.filter((part, p) => likelihood(p, frame) >= cutoff && !hidden.includes(part));

let user: TestUser;
let project: TestProject;
let place: VideoPlace;

test.beforeAll(async ({ request }) => {
  user = await createUser(request, 'Mara');
  project = await createProject(request, user, 'Novel object');
  const subjectUuid = (await createSubject(request, user, project.project_uuid, 'M7')).subject_uuid;
  place = await uploadReadyVideo(request, user, project.project_uuid, subjectUuid, codedVideoPath(), 'coded');
  const response = await request.post(
    `/api/projects/${place.projectUuid}/subjects/${place.subjectUuid}/videos/${place.videoUuid}/pose/`,
    {
      headers: { Authorization: `Bearer ${user.access}` },
      multipart: {
        name: 'DLC resnet50',
        file: { name: 'predictions.csv', mimeType: 'text/csv', buffer: overlayCsv() },
      },
    },
  );
  expect(response.status(), await response.text()).toBe(201);
});

/**
 * The drawn points: their body part, their position in video pixels (the SVG's own coordinates) and where they are
 * on screen, mapped back to video pixels through the picture's box.
 */
async function drawnPoints(page: Page) {
  const box = (await page.getByTestId('video-element').boundingBox())!;
  const points = await page.getByTestId('pose-point').evaluateAll((circles) =>
    circles.map((circle) => {
      const rect = circle.getBoundingClientRect();
      return {
        part: circle.getAttribute('data-part')!,
        x: Number(circle.getAttribute('cx')),
        y: Number(circle.getAttribute('cy')),
        screenX: rect.x + rect.width / 2,
        screenY: rect.y + rect.height / 2,
      };
    }),
  );
  return points.map((point) => ({
    ...point,
    onScreen: {
      x: ((point.screenX - box.x) * CODED.width) / box.width,
      y: ((point.screenY - box.y) * CODED.height) / box.height,
    },
  }));
}

async function expectDrawn(page: Page, frame: number, parts: readonly string[]) {
  const points = await drawnPoints(page);
  expect(points.map((point) => point.part)).toEqual(parts);
  for (const point of points) {
    const expected = position(PARTS.indexOf(point.part as (typeof PARTS)[number]), frame);
    expect(point.x).toBeCloseTo(expected.x, 3);
    expect(point.y).toBeCloseTo(expected.y, 3);
    // Where the eye sees it: within a screen pixel or so of the same video pixel.
    expect(Math.abs(point.onScreen.x - expected.x)).toBeLessThan(1.5);
    expect(Math.abs(point.onScreen.y - expected.y)).toBeLessThan(1.5);
  }
}

test('the imported keypoints follow the video in the Annotator, the subject’s player and Quick Score', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1400, height: 1000 });
  await signIn(page, user, { activeProjectUuid: project.project_uuid });
  const frameRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/frames/')) frameRequests.push(new URL(request.url()).search);
  });

  // Annotator: to frame 45 (Shift+→ a second, → a frame at a time).
  await page.goto(`/projects/${place.projectUuid}/annotator?subject=${place.subjectUuid}&video=${place.videoUuid}`);
  await videoLoaded(page);
  const panel = page.getByTestId('pose-panel');
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('This set has no skeleton: points only.');
  await page.keyboard.press('Shift+ArrowRight');
  for (let i = 0; i < 15; i++) await page.keyboard.press('ArrowRight');
  await atFrame(page, 45);
  // Frame 45 is odd: the ear (0.3) is below the default cutoff 0.6.
  await expectDrawn(page, 45, expectedParts(45, 0.6));
  expect(expectedParts(45, 0.6)).toEqual(['nose', 'tail']);

  const cutoff = panel.getByLabel(/Likelihood cutoff/);
  await cutoff.fill('0.2');
  await expectDrawn(page, 45, expectedParts(45, 0.2));
  await cutoff.fill('0.85');
  await expectDrawn(page, 45, ['nose']);
  await cutoff.fill('0.2');
  await panel.getByRole('checkbox', { name: 'tail' }).uncheck();
  await expectDrawn(page, 45, expectedParts(45, 0.2, ['tail']));
  await page.screenshot({ path: test.info().outputPath('pose-annotator.png') });

  // Playing across a window's end (frame 256): every frame the layer shows has its points, and the frames come
  // in windows of 256 asked ahead, not frame by frame.
  await panel.getByRole('checkbox', { name: 'tail' }).check();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let i = 0; i < 6; i++) await page.keyboard.press('Shift+ArrowRight');
  await atFrame(page, 225);
  // What the layer drew (each change of its frame, read from the mutation records: React may commit twice before an
  // observer runs) and the frames the browser presented meanwhile (its own frame callbacks).
  await page.getByTestId('pose-layer').evaluate((svg) => {
    const drawn: number[] = [];
    const incomplete: number[] = [];
    const presented: number[] = [];
    Object.assign(window, { pose: { drawn, incomplete, presented } });
    new MutationObserver((records) => {
      for (const record of records) drawn.push(Number(record.oldValue));
      if (!svg.hasAttribute('data-loaded') || svg.querySelectorAll('[data-testid="pose-point"]').length < 2)
        incomplete.push(Number(svg.getAttribute('data-frame')));
    }).observe(svg, { attributes: true, attributeFilter: ['data-frame'], attributeOldValue: true });
    const video = document.querySelector('[data-testid="video-element"]') as HTMLVideoElement;
    const onFrame = (_: number, metadata: VideoFrameCallbackMetadata) => {
      presented.push(Math.round(metadata.mediaTime * 30));
      video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
  });
  await page.keyboard.press(' ');
  await expect.poll(() => shownFrame(page), { timeout: 20_000 }).toBeGreaterThan(300);
  await page.keyboard.press(' ');
  const last = Number(await page.getByTestId('pose-layer').getAttribute('data-frame'));
  const { drawn, incomplete, presented } = await page.evaluate(
    () => (window as unknown as { pose: { drawn: number[]; incomplete: number[]; presented: number[] } }).pose,
  );
  const drawnFrames = new Set([...drawn, last]);
  const missed = presented.filter((frame) => frame > 225 && !drawnFrames.has(frame));
  test.info().annotations.push({
    type: 'frames while playing',
    description: `${last - 225} played, ${presented.length} presented by the browser, ${drawnFrames.size - 1} drawn by the layer, presented but not drawn: ${missed.join(' ') || 'none'}`,
  });
  expect(incomplete).toEqual([]);
  // The layer keeps up with what the browser shows (a loaded headless browser drops frames of its own).
  expect(missed.length).toBeLessThanOrEqual(presented.length * 0.1);
  expect(frameRequests).toEqual(['?start=0&count=256', '?start=256&count=256', '?start=512&count=256']);

  // The subject's player: its own panel (defaults again), frame 60 (even: the ear is sure).
  await page.goto(`/projects/${place.projectUuid}/subjects/${place.subjectUuid}?video=${place.videoUuid}`);
  await videoLoaded(page);
  await page.getByRole('application', { name: /Player/ }).focus();
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await atFrame(page, 60);
  await expectDrawn(page, 60, ['nose', 'ear', 'tail']);
  await page.getByTestId('pose-panel').getByRole('checkbox', { name: 'ear' }).uncheck();
  await expectDrawn(page, 60, ['nose', 'tail']);
  await page.screenshot({ path: test.info().outputPath('pose-subject.png') });

  // Quick Score: the first event's clip ends on a frame the overlay follows.
  const { analysisUuid } = await importRunWithEvents(request, user, place, [150, 450], CODED.frames);
  await page.goto(quickScoreUrl(place, analysisUuid));
  await videoLoaded(page);
  await expect(page.getByTestId('pose-panel')).toBeVisible();
  await expect.poll(() => page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  const frame = await shownFrame(page);
  await atFrame(page, frame);
  await expectDrawn(page, frame, expectedParts(frame, 0.6));
  await page.screenshot({ path: test.info().outputPath('pose-quick-score.png') });
});
