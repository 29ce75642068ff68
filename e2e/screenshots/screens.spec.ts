import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import {
  finishedRun,
  longSceneVideoPath,
  revokeRun,
  startRun,
  uploadReadyVideo,
  type VideoPlace,
} from '../support/analysis';
import { createProject, createSubject, createUser, expect, signIn, type TestUser, test } from '../support/fixtures';
import { testVideoPath } from '../support/global-setup';
import { jumpsVideoPath } from '../support/jumps-video';

/** `npm run screenshots`: the main screens, light and dark, desktop and phone, into docs/screenshots/. */
const OUT = path.resolve(import.meta.dirname, '../../docs/screenshots');
const VIEWPORTS = { desktop: { width: 1440, height: 960 }, phone: { width: 390, height: 844 } } as const;
const THEMES = ['light', 'dark'] as const;

test.describe.configure({ mode: 'serial' });

let user: TestUser;
let projectUuid = '';
let subjectUuid = '';

test.beforeAll(async ({ request }) => {
  user = await createUser(request, 'Maria');
  const auth = { Authorization: `Bearer ${user.access}` };
  const project = await createProject(request, user, 'Neonatal twitch study');
  projectUuid = project.project_uuid;
  await createProject(request, user, 'Fear conditioning 2026');
  await createProject(request, user, 'Open field pilot');
  const subjects = [];
  for (const [name, group] of [
    ['M12', 'control'],
    ['M13', 'control'],
    ['F07', 'knockout'],
    ['F08', 'knockout'],
    ['M21', 'sham'],
  ] as const) {
    const subject = await createSubject(request, user, projectUuid, name);
    await request.patch(`/api/projects/${projectUuid}/subjects/${subject.subject_uuid}/`, {
      headers: auth,
      data: {
        group,
        notes: 'P8, recorded during active sleep.',
        metadata: { sex: name[0] === 'M' ? 'male' : 'female', strain: 'Sprague-Dawley' },
      },
    });
    subjects.push(subject);
  }
  subjectUuid = subjects[0]!.subject_uuid;
  // A team: a colleague who joined as a member, and an invitation still pending.
  const colleague = await createUser(request, 'Jonas');
  const invited = await request.post(`/api/projects/${projectUuid}/invitations/`, {
    headers: auth,
    data: { email: colleague.email, role: 'member' },
  });
  const { invitation_uuid } = (await invited.json()) as { invitation_uuid: string };
  await request.post(`/api/projects/${projectUuid}/invitations/${invitation_uuid}/accept/`, {
    headers: { Authorization: `Bearer ${colleague.access}` },
    data: {},
  });
  await request.post(`/api/projects/${projectUuid}/invitations/`, {
    headers: auth,
    data: { email: 'postdoc@university.edu', role: 'viewer' },
  });
  for (const name of ['Session 1 — baseline', 'Session 2 — post-injection']) {
    const response = await request.post(`/api/projects/${projectUuid}/subjects/${subjectUuid}/videos/`, {
      headers: auth,
      multipart: {
        name,
        file: { name: 'pattern-4s.mp4', mimeType: 'video/mp4', buffer: readFileSync(testVideoPath()) },
      },
    });
    expect(response.status(), await response.text()).toBe(201);
  }
  await expect
    .poll(
      async () => {
        const list = await request.get(`/api/projects/${projectUuid}/subjects/${subjectUuid}/videos/`, {
          headers: auth,
        });
        const body = (await list.json()) as { results: { status: string }[] };
        return body.results.every((v) => v.status === 'ready');
      },
      { timeout: 60_000 },
    )
    .toBe(true);
});

async function shoot(page: Page, name: string, theme: string, device: string) {
  await page.mouse.move(0, 0);
  // Let fonts, images and transitions settle.
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(OUT, `${name}-${theme}-${device}.png`) });
}

for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const theme of THEMES) {
    test(`${device} ${theme}`, async ({ browser }) => {
      test.setTimeout(120_000);
      const context = await browser.newContext({
        viewport,
        colorScheme: theme,
        deviceScaleFactor: device === 'phone' ? 2 : 1,
      });
      await context.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
      const page = await context.newPage();

      await page.goto('/auth/login');
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
      await shoot(page, 'login', theme, device);
      await page.goto('/auth/register');
      await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
      await shoot(page, 'register', theme, device);

      await signIn(page, user, { activeProjectUuid: projectUuid });
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Neonatal twitch study' })).toBeVisible();
      await expect(page.getByText('Recent videos')).toBeVisible();
      await shoot(page, 'dashboard', theme, device);

      await page.goto(`/projects/${projectUuid}/subjects`);
      await expect(page.getByRole('link', { name: 'M12' })).toBeVisible();
      await shoot(page, 'subjects', theme, device);

      await page.goto(`/projects/${projectUuid}/subjects/${subjectUuid}`);
      await page.getByRole('button', { name: 'Open Session 1 — baseline' }).click();
      await expect(page.getByRole('application')).toBeVisible();
      await expect
        .poll(() => page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.readyState))
        .toBeGreaterThanOrEqual(2);
      await page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => {
        v.currentTime = 1.5;
      });
      await shoot(page, 'subject', theme, device);

      await page.goto(`/projects/${projectUuid}`);
      await expect(page.getByRole('heading', { name: 'Team' })).toBeVisible();
      await expect(page.getByTestId('invitation-row')).toBeVisible();
      await shoot(page, 'project', theme, device);

      await page.goto('/new-project');
      await shoot(page, 'new-project', theme, device);

      await page.goto('/profile');
      await expect(page.getByRole('heading', { name: 'Account' })).toBeVisible();
      await shoot(page, 'profile', theme, device);

      if (device === 'phone') {
        await page.goto('/');
        await page.getByRole('button', { name: 'Toggle sidebar' }).click();
        await expect(page.getByRole('dialog', { name: 'Navigation' })).toBeVisible();
        await page.waitForTimeout(300);
        await shoot(page, 'navigation', theme, device);
      } else {
        await page.goto('/');
        await page.getByRole('button', { name: 'Switch project' }).click();
        await expect(page.getByRole('menu')).toBeVisible();
        await shoot(page, 'switcher', theme, device);
      }
      await context.close();
    });
  }
}

/** Analysis Logs with runs that succeeded, one revoked and one still running (filter with -g "analysis logs"). */
test.describe('analysis logs', () => {
  let running: { place: VideoPlace; analysisUuid: string } | null = null;
  let expandedRun = '';

  test.beforeAll(async ({ request }) => {
    test.setTimeout(240_000);
    const headers = { Authorization: `Bearer ${user.access}` };
    const subjectNamed = async (name: string) => {
      const search = await request.get(`/api/projects/${projectUuid}/subjects/?search=${name}`, { headers });
      return ((await search.json()) as { results: { subject_uuid: string }[] }).results[0]!.subject_uuid;
    };
    // The textured scene: a square jumps three times on the left; the ROI leaves out the one sliding on the right.
    const scene = await uploadReadyVideo(
      request,
      user,
      projectUuid,
      await subjectNamed('M13'),
      longSceneVideoPath(10),
      'Open field — day 1',
    );
    const leftRoi = { rois: [{ start_s: 0, x: 0, y: 0, width: 200, height: 480 }] };
    const movement = await startRun(request, user, scene, { kind: 'movement_detection', parameters: leftRoi });
    await finishedRun(request, user, scene, movement.analysis_uuid);
    const freezing = await startRun(request, user, scene, {
      kind: 'movement_detection',
      parameters: { ...leftRoi, threshold: 25, opening: 3, freeze_threshold: 10, min_freeze_s: 0.5, bin_s: 5 },
    });
    await finishedRun(request, user, scene, freezing.analysis_uuid);
    expandedRun = freezing.analysis_uuid;
    const events = await startRun(request, user, scene, {
      kind: 'event_detection',
      source_analysis_uuid: movement.analysis_uuid,
      parameters: { event_threshold_k: 4, refractory_s: 1.5 },
    });
    await finishedRun(request, user, scene, events.analysis_uuid);
    const slow = { opening: 25, closing: 25, small_object_removal: 50 };
    const stopped = await startRun(request, user, scene, { kind: 'movement_detection', parameters: slow });
    await revokeRun(request, user, scene, stopped.analysis_uuid);

    // A long recording with slow mask passes keeps running through all the shots (revoked after them).
    const long = await uploadReadyVideo(
      request,
      user,
      projectUuid,
      await subjectNamed('F07'),
      longSceneVideoPath(120),
      'Overnight recording',
    );
    const live = await startRun(request, user, long, { kind: 'movement_detection', parameters: slow });
    running = { place: long, analysisUuid: live.analysis_uuid };
  });

  test.afterAll(async ({ request }) => {
    if (running) await revokeRun(request, user, running.place, running.analysisUuid);
  });

  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    for (const theme of THEMES) {
      test(`analysis logs ${device} ${theme}`, async ({ browser }) => {
        const context = await browser.newContext({
          viewport,
          colorScheme: theme,
          deviceScaleFactor: device === 'phone' ? 2 : 1,
        });
        await context.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
        const page = await context.newPage();
        await signIn(page, user, { activeProjectUuid: projectUuid });
        await page.goto(`/projects/${projectUuid}/analysis-logs`);
        await expect(page.getByTestId('run-row')).toHaveCount(5);
        const live = page.locator(`[data-run="${running!.analysisUuid}"]`);
        await expect(live.getByTestId('run-status')).toHaveAttribute('data-status', 'running', { timeout: 30_000 });
        if (device === 'desktop') {
          await page
            .locator(`[data-run="${expandedRun}"]`)
            .getByRole('button', { name: /^Show details of/ })
            .click();
          await expect(page.getByTestId('run-details')).toBeVisible();
        }
        await shoot(page, 'analysis-logs', theme, device);
        await context.close();
      });
    }
  }
});

/** The Movement Detector with a finished run open and a preview shown (filter with -g "movement detector"). */
test.describe('movement detector', () => {
  let videoUuid = '';
  let runUuid = '';

  test.beforeAll(async ({ request }) => {
    test.setTimeout(180_000);
    const place = await uploadReadyVideo(
      request,
      user,
      projectUuid,
      subjectUuid,
      jumpsVideoPath(),
      'Open field — jumps',
    );
    videoUuid = place.videoUuid;
    const run = async (parameters: Record<string, unknown>) => {
      const started = await startRun(request, user, place, { kind: 'movement_detection', parameters });
      expect((await finishedRun(request, user, place, started.analysis_uuid, 90_000)).status).toBe('succeeded');
      return started.analysis_uuid;
    };
    const left = { x: 0, y: 0, width: 200, height: 240 };
    await run({ rois: [{ start_s: 0, ...left }], threshold: 30 });
    runUuid = await run({
      rois: [
        { start_s: 0, ...left },
        { start_s: 3, x: 20, y: 40, width: 170, height: 170 },
      ],
      bypass_ranges: [[4.2, 4.6]],
      freeze_threshold: 5,
      min_freeze_s: 0.5,
      bin_s: 2.5,
    });
  });

  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    for (const theme of THEMES) {
      test(`movement detector ${device} ${theme}`, async ({ browser }) => {
        const context = await browser.newContext({
          viewport,
          colorScheme: theme,
          deviceScaleFactor: device === 'phone' ? 2 : 1,
        });
        await context.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
        const page = await context.newPage();
        await signIn(page, user, { activeProjectUuid: projectUuid });
        await page.goto(
          `/projects/${projectUuid}/movement-detector?subject=${subjectUuid}&video=${videoUuid}&run=${runUuid}`,
        );
        await expect(page.getByTestId('event-item')).toHaveCount(3);
        await expect
          .poll(() => page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.readyState))
          .toBeGreaterThanOrEqual(2);
        // The second event open: the player, the timeline and the chart cursor at 2 s.
        await page.getByTestId('event-item').nth(1).click();
        await page.getByRole('button', { name: 'Preview', exact: true }).click();
        await expect(page.getByTestId('preview-image')).toBeVisible({ timeout: 30_000 });
        await page.mouse.move(0, 0);
        await page.waitForLoadState('networkidle').catch(() => {});
        if (device === 'desktop') {
          // The whole page (the result sits below the player and the parameters) in a viewport as tall as it, so
          // the sidebar spans it too; twice, as the player grows with the viewport's height.
          for (let pass = 0; pass < 2; pass++) {
            const height = await page.evaluate(() => document.documentElement.scrollHeight);
            await page.setViewportSize({ width: viewport.width, height });
          }
        } else {
          // The result, just below the sticky header.
          await page.getByTestId('run-result').evaluate((card) => {
            card.scrollIntoView({ block: 'start' });
            window.scrollBy(0, -64);
          });
        }
        await page.waitForTimeout(500);
        await page.screenshot({ path: path.join(OUT, `movement-detector-${theme}-${device}.png`) });
        await context.close();
      });
    }
  }
});

/** The Annotator: four tracks with bouts over a 40-second video, one selected, zoomed in (filter with -g "annotator"). */
test.describe('annotator', () => {
  let place: VideoPlace;

  test.beforeAll(async ({ request }) => {
    test.setTimeout(120_000);
    place = await uploadReadyVideo(
      request,
      user,
      projectUuid,
      subjectUuid,
      longSceneVideoPath(40),
      'Home cage — night 1',
    );
    const auth = { Authorization: `Bearer ${user.access}` };
    const base = `/api/projects/${projectUuid}/subjects/${subjectUuid}/videos/${place.videoUuid}/annotations/`;
    const frames = (pairs: [number, number][]) => pairs.map(([a, b]) => [a / 30, b / 30]);
    const tracks: [string, string, [number, number][]][] = [
      [
        'Grooming',
        'g',
        [
          [60, 150],
          [300, 420],
          [700, 760],
          [1000, 1100],
        ],
      ],
      [
        'Rearing',
        'r',
        [
          [170, 200],
          [240, 262],
          [500, 540],
          [820, 845],
          [880, 905],
        ],
      ],
      [
        'Freezing',
        'f',
        [
          [430, 690],
          [1120, 1195],
        ],
      ],
      [
        'Twitch',
        't',
        [
          [20, 23],
          [95, 98],
          [356, 359],
          [611, 614],
          [777, 780],
          [930, 933],
          [1060, 1063],
        ],
      ],
    ];
    for (const [name, hotkey, bouts] of tracks) {
      const created = await request.post(`${base}config/`, { headers: auth, data: { name, hotkey } });
      expect(created.status(), await created.text()).toBe(201);
      const uuid = (await created.json()).annotation_config_uuid;
      const put = await request.put(`${base}${uuid}/`, { headers: auth, data: { ranges: frames(bouts), version: 0 } });
      expect(put.ok(), await put.text()).toBe(true);
    }
  });

  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    for (const theme of THEMES) {
      test(`annotator ${device} ${theme}`, async ({ browser }) => {
        const context = await browser.newContext({
          viewport,
          colorScheme: theme,
          deviceScaleFactor: device === 'phone' ? 2 : 1,
        });
        await context.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
        const page = await context.newPage();
        await signIn(page, user, { activeProjectUuid: projectUuid });
        await page.goto(`/projects/${projectUuid}/annotator?subject=${subjectUuid}&video=${place.videoUuid}`);
        await expect(page.getByTestId('track-row')).toHaveCount(4);
        await expect
          .poll(() => page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.readyState))
          .toBeGreaterThanOrEqual(2);
        const canvas = page.getByTestId('timeline-canvas');
        await canvas.scrollIntoViewIfNeeded();
        // Zoom in twice around the playhead, then select a Freezing bout by clicking it.
        await page.keyboard.press('+');
        await page.keyboard.press('+');
        await page.getByRole('button', { name: 'Whole video' }).click();
        const box = (await canvas.boundingBox())!;
        await page.mouse.click(box.x + box.width * (500 / 1200), box.y + 22 + 2 * 32 + 15);
        await expect(page.getByTestId('selected-bout')).toContainText('Freezing');
        await page.mouse.move(0, 0);
        await page.waitForLoadState('networkidle').catch(() => {});
        if (device === 'desktop') {
          // Until it fits: the player grows with the viewport's height (45vh).
          for (let pass = 0; pass < 6; pass++) {
            const height = await page.evaluate(() => document.documentElement.scrollHeight);
            if (height <= (page.viewportSize()?.height ?? 0)) break;
            await page.setViewportSize({ width: viewport.width, height });
          }
          await page.evaluate(() => window.scrollTo(0, 0));
        } else {
          await canvas.evaluate((element) => {
            element.scrollIntoView({ block: 'center' });
          });
        }
        await page.waitForTimeout(500);
        await page.screenshot({ path: path.join(OUT, `annotator-${theme}-${device}.png`) });
        await context.close();
      });
    }
  }
});

/** Quick Score in the middle of a review: labels, a flag, a discard, 11 of 30 reviewed (filter with -g "quick score"). */
test.describe('quick score', () => {
  let place: VideoPlace;
  let runUuid = '';

  test.beforeAll(async ({ request }) => {
    test.setTimeout(180_000);
    const auth = { Authorization: `Bearer ${user.access}` };
    place = await uploadReadyVideo(
      request,
      user,
      projectUuid,
      subjectUuid,
      longSceneVideoPath(40),
      'Active sleep — P8',
    );
    // A movement-like series: a noisy baseline and 30 twitches that rise and fade over a few frames.
    const fps = 30;
    const frames = 40 * fps;
    const onsets = Array.from({ length: 30 }, (_, i) => Math.round((1 + i * 1.28 + (i % 3) * 0.17) * fps));
    const values = Array.from({ length: frames }, (_, f) => 30 + 18 * Math.abs(Math.sin(f * 1.7) * Math.cos(f * 0.31)));
    onsets.forEach((onset, i) => {
      const peak = 260 + ((i * 97) % 420);
      for (let k = 0; k < 9; k++) if (onset + k < frames) values[onset + k]! += peak * Math.exp(-k / 2.2);
    });
    const base = `/api/projects/${projectUuid}/subjects/${subjectUuid}/videos/${place.videoUuid}/analysis/`;
    const imported = await request.post(`${base}import_timeseries/`, {
      headers: auth,
      multipart: {
        timeseries: {
          name: 'twitches.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(`value\n${values.map((v) => v.toFixed(1)).join('\n')}\n`),
        },
        parameters: JSON.stringify({ event_threshold: 150, refractory_s: 0.5 }),
      },
    });
    expect(imported.status(), await imported.text()).toBe(201);
    runUuid = ((await imported.json()) as { analysis_uuid: string }).analysis_uuid;
    const events = (
      (await (await request.get(`${base}retrieve-events/?analysis_uuid=${runUuid}`, { headers: auth })).json()) as {
        events: { id: number }[];
      }
    ).events;
    expect(events).toHaveLength(30);
    const id = (i: number) => events[i]!.id;
    for (const name of ['left forelimb', 'right forelimb', 'left hindlimb', 'right hindlimb', 'tail', 'head']) {
      await request.post(`/api/projects/${projectUuid}/labels/`, { headers: auth, data: { name } });
    }
    const changes = [
      { action: 'label', id: id(0), label: 'left forelimb' },
      { action: 'label', id: id(1), label: 'tail' },
      { action: 'discard', id: id(3) },
      { action: 'label', id: id(5), label: 'right hindlimb' },
      { action: 'flag', id: id(7) },
      { action: 'label', id: id(9), label: 'head' },
      { action: 'label', id: id(11), label: 'left forelimb' },
      { action: 'flag', id: id(11) },
      ...Array.from({ length: 11 }, (_, i) => ({ action: 'review', id: id(i) })),
    ];
    const updated = await request.post(`${base}update-events/`, {
      headers: auth,
      data: { analysis_uuid: runUuid, version: 0, changes },
    });
    expect(updated.ok(), await updated.text()).toBe(true);
    const kept = await request.put(`${base}${runUuid}/review-position/`, { headers: auth, data: { event_id: id(11) } });
    expect(kept.ok(), await kept.text()).toBe(true);
  });

  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    for (const theme of THEMES) {
      test(`quick score ${device} ${theme}`, async ({ browser }) => {
        const context = await browser.newContext({
          viewport,
          colorScheme: theme,
          deviceScaleFactor: device === 'phone' ? 2 : 1,
        });
        await context.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
        const page = await context.newPage();
        await signIn(page, user, { activeProjectUuid: projectUuid });
        await page.goto(
          `/projects/${projectUuid}/quick-score?subject=${subjectUuid}&video=${place.videoUuid}&run=${runUuid}`,
        );
        await expect(page.getByTestId('event-position')).toHaveText('Event 12 of 30');
        await expect(page.getByTestId('event-trace').locator('canvas').first()).toBeVisible();
        // The clip has played and rests on the event's frame.
        await expect
          .poll(() =>
            page
              .getByTestId('video-element')
              .evaluate((v: HTMLVideoElement) => v.paused && !v.seeking && v.played.length > 0),
          )
          .toBe(true);
        await page.mouse.move(0, 0);
        await page.waitForLoadState('networkidle').catch(() => {});
        if (device === 'desktop') {
          const height = await page.evaluate(() => document.documentElement.scrollHeight);
          await page.setViewportSize({ width: viewport.width, height });
        }
        await page.waitForTimeout(400);
        await page.screenshot({ path: path.join(OUT, `quick-score-${theme}-${device}.png`) });
        if (device === 'desktop') {
          // The label menu over the page.
          await page.keyboard.press('Shift');
          await page.keyboard.type('lf');
          await expect(page.getByTestId('label-menu').getByRole('option').first()).toContainText('left forelimb');
          await page.waitForTimeout(300);
          await page.screenshot({ path: path.join(OUT, `quick-score-labels-${theme}-${device}.png`) });
        }
        await context.close();
      });
    }
  }
});

/**
 * Agreement between two hand scorers of the jumps video (events and frames), a disagreement open in the player; and the
 * Calibrate panel of the detector's run against a track of the jumps (filter with -g "agreement").
 */
test.describe('agreement', () => {
  let place: VideoPlace;
  let runUuid = '';
  const tracks: Record<string, string> = {};

  test.beforeAll(async ({ request }) => {
    test.setTimeout(180_000);
    place = await uploadReadyVideo(request, user, projectUuid, subjectUuid, jumpsVideoPath(), 'Open field — raters');
    const started = await startRun(request, user, place, {
      kind: 'movement_detection',
      parameters: { rois: [{ start_s: 0, x: 0, y: 0, width: 200, height: 240 }] },
    });
    expect((await finishedRun(request, user, place, started.analysis_uuid, 90_000)).status).toBe('succeeded');
    const auth = { Authorization: `Bearer ${user.access}` };
    // For the Calibrate panel, a series with texture: low noise, the three jumps at falling heights and two smaller
    // bumps that are not jumps, so F1 rises and falls over k.
    const values = Array.from({ length: 150 }, (_, i) => (i * 7) % 9);
    for (const [frame, height] of [
      [30, 60],
      [60, 42],
      [105, 27],
      [80, 20],
      [125, 14],
    ] as const) {
      values[frame] = height;
      values[frame + 1] = height;
    }
    const imported = await request.post(
      `/api/projects/${projectUuid}/subjects/${subjectUuid}/videos/${place.videoUuid}/analysis/import_timeseries/`,
      {
        headers: auth,
        multipart: {
          timeseries: {
            name: 'motion.csv',
            mimeType: 'text/csv',
            buffer: Buffer.from(`value\n${values.join('\n')}\n`),
          },
        },
      },
    );
    expect(imported.status(), await imported.text()).toBe(201);
    runUuid = (await imported.json()).analysis_uuid;
    const base = `/api/projects/${projectUuid}/subjects/${subjectUuid}/videos/${place.videoUuid}/annotations/`;
    const bouts: [string, [number, number][]][] = [
      [
        'Rater A',
        [
          [1, 1.4],
          [2, 2.4],
          [4.2, 4.6],
        ],
      ],
      [
        'Rater B',
        [
          [1.1, 1.4],
          [2.05, 2.5],
          [3.5, 3.8],
        ],
      ],
      [
        'Jumps',
        [
          [1, 1.2],
          [2, 2.2],
          [3.5, 3.7],
        ],
      ],
    ];
    for (const [name, ranges] of bouts) {
      const created = await request.post(`${base}config/`, { headers: auth, data: { name } });
      expect(created.status(), await created.text()).toBe(201);
      tracks[name] = (await created.json()).annotation_config_uuid;
      const put = await request.put(`${base}${tracks[name]}/`, { headers: auth, data: { ranges, version: 0 } });
      expect(put.ok(), await put.text()).toBe(true);
    }
  });

  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    for (const theme of THEMES) {
      test(`agreement ${device} ${theme}`, async ({ browser }) => {
        const context = await browser.newContext({
          viewport,
          colorScheme: theme,
          deviceScaleFactor: device === 'phone' ? 2 : 1,
        });
        await context.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
        const page = await context.newPage();
        await signIn(page, user, { activeProjectUuid: projectUuid });
        await page.goto(
          `/projects/${projectUuid}/agreement?subject=${subjectUuid}&video=${place.videoUuid}&reference=track:${tracks['Rater A']}&candidate=track:${tracks['Rater B']}`,
        );
        await expect(page.getByTestId('cell-both')).toBeVisible();
        await expect
          .poll(() => page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.readyState))
          .toBeGreaterThanOrEqual(2);
        await page.getByTestId('disagreement-item').nth(2).click();
        await expect(page.getByTestId('disagreement-position')).toContainText('3 of');
        await page.waitForTimeout(1500);
        await page.mouse.move(0, 0);
        if (device === 'desktop') {
          for (let pass = 0; pass < 2; pass++) {
            const height = await page.evaluate(() => document.documentElement.scrollHeight);
            await page.setViewportSize({ width: viewport.width, height });
          }
        } else {
          await page.getByTestId('agreement-result').evaluate((card) => {
            card.scrollIntoView({ block: 'start' });
            window.scrollBy(0, -64);
          });
        }
        await page.waitForTimeout(500);
        await page.screenshot({ path: path.join(OUT, `agreement-${theme}-${device}.png`) });
        await context.close();
      });
    }
  }

  for (const theme of THEMES) {
    test(`calibrate desktop ${theme}`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: VIEWPORTS.desktop, colorScheme: theme });
      await context.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
      const page = await context.newPage();
      await signIn(page, user, { activeProjectUuid: projectUuid });
      await page.goto(
        `/projects/${projectUuid}/movement-detector?subject=${subjectUuid}&video=${place.videoUuid}&run=${runUuid}`,
      );
      const panel = page.getByTestId('calibrate-panel');
      await panel.locator('#calibrate-reference-track').selectOption(tracks.Jumps!);
      await panel.locator('#calibrate-refractory').fill('0.25, 0.5, 1');
      await panel.getByRole('button', { name: 'Calibrate', exact: true }).click();
      await expect(panel.getByTestId('calibration-best')).toBeVisible();
      await page.mouse.move(0, 0);
      // Below the sticky header, then the panel alone.
      await panel.evaluate((element) => {
        element.scrollIntoView({ block: 'start' });
        window.scrollBy(0, -72);
      });
      await page.waitForTimeout(500);
      const box = (await panel.boundingBox())!;
      await page.screenshot({
        path: path.join(OUT, `calibrate-${theme}-desktop.png`),
        clip: { x: box.x - 16, y: box.y - 8, width: box.width + 32, height: Math.min(box.height + 16, 900) },
      });
      await context.close();
    });
  }
});

/** Issue 20's first hour (filter with -g "first hour"): the getting-started checklist and an invitation's landing. */
test.describe('first hour', () => {
  test('checklist and invitation landing', async ({ browser, request }) => {
    const viewport = VIEWPORTS.desktop;
    const signedIn = await browser.newContext({ viewport, colorScheme: 'light' });
    const page = await signedIn.newPage();
    await signIn(page, user, { activeProjectUuid: projectUuid });
    await page.goto('/');
    await expect(page.getByTestId('getting-started')).toBeVisible();
    await page.mouse.move(0, 0);
    await page.waitForLoadState('networkidle').catch(() => {});
    await page.getByTestId('getting-started').screenshot({ path: path.join(OUT, 'checklist.png') });
    await signedIn.close();

    const invited = await request.post(`/api/projects/${projectUuid}/invitations/`, {
      headers: { Authorization: `Bearer ${user.access}` },
      data: { email: 'student@university.edu', role: 'member' },
    });
    const { invitation_uuid } = (await invited.json()) as { invitation_uuid: string };
    const visitor = await browser.newContext({ viewport, colorScheme: 'light' });
    const landing = await visitor.newPage();
    await landing.goto(`/auth/accept-invite/${projectUuid}/${invitation_uuid}`);
    await expect(landing.getByTestId('invitation-intro')).toBeVisible();
    await landing.mouse.move(0, 0);
    await landing.waitForTimeout(300);
    await landing.screenshot({ path: path.join(OUT, 'invitation-landing.png') });
    await visitor.close();
  });
});
