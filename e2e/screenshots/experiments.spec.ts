import path from 'node:path';
import type { Page } from '@playwright/test';
import { finishedRun, startRun, uploadReadyVideo, type VideoPlace } from '../support/analysis';
import { createProject, createUser, expect, signIn, type TestUser, test } from '../support/fixtures';
import { JUMPS, jumpsVideoPath } from '../support/jumps-video';

/** `npm run screenshots`: the experiment pages (protocols, a protocol, Run on many videos, a batch) into docs/screenshots/. */
const OUT = path.resolve(import.meta.dirname, '../../docs/screenshots');
const VIEWPORTS = { desktop: { width: 1440, height: 960 }, phone: { width: 390, height: 844 } } as const;
const THEMES = ['light', 'dark'] as const;

test.describe.configure({ mode: 'serial' });

let user: TestUser;
let projectUuid = '';
let protocolUuid = '';
let batchUuid = '';
const places: VideoPlace[] = [];

test.beforeAll(async ({ request }) => {
  test.setTimeout(240_000);
  user = await createUser(request, 'Maria');
  const headers = { Authorization: `Bearer ${user.access}` };
  projectUuid = (await createProject(request, user, 'Fear conditioning 2026')).project_uuid;
  for (const [name, group] of [
    ['M12', 'control'],
    ['M13', 'control'],
    ['M14', 'control'],
    ['F07', 'knockout'],
    ['F08', 'knockout'],
    ['F09', 'knockout'],
  ] as const) {
    const response = await request.post(`/api/projects/${projectUuid}/subjects/`, {
      headers,
      data: { name, group, metadata: { sex: name[0] === 'M' ? 'male' : 'female', strain: 'C57BL/6J' } },
    });
    const { subject_uuid } = (await response.json()) as { subject_uuid: string };
    places.push(await uploadReadyVideo(request, user, projectUuid, subject_uuid, jumpsVideoPath(), `${name} day 1`));
  }
  const run = await startRun(request, user, places[0]!, {
    kind: 'movement_detection',
    parameters: { rois: [{ start_s: 0, ...JUMPS.leftRoi }] },
  });
  await finishedRun(request, user, places[0]!, run.analysis_uuid);
  const created = await request.post(`/api/projects/${projectUuid}/protocols/`, {
    headers,
    data: {
      name: 'Jumps, left half',
      kind: 'movement_detection',
      parameters: { rois: [{ start_s: 0, ...JUMPS.leftRoi }] },
    },
  });
  protocolUuid = ((await created.json()) as { protocol_uuid: string }).protocol_uuid;
  await request.patch(`/api/projects/${projectUuid}/protocols/${protocolUuid}/`, {
    headers,
    data: { parameters: { rois: [{ start_s: 0, ...JUMPS.leftRoi }], threshold: 18 } },
  });
  for (const [name, kind] of [
    ['Open field, zones', 'location_tracking'],
    ['Twitches k = 4', 'event_detection'],
  ] as const) {
    await request.post(`/api/projects/${projectUuid}/protocols/`, { headers, data: { name, kind, parameters: {} } });
  }
  // The knockout animals' camera sat further right (their ROI moved 100 px); some sessions had a wake period to skip.
  const moved = { geometry: { dx: 100, dy: 0, scale: 1, origin: [100, 120] } };
  const skip = (end: number) => ({ parameters: { bypass_ranges: [[0.5, end]] } });
  const overrides = {
    [places[2]!.videoUuid]: skip(1.5),
    [places[3]!.videoUuid]: { ...moved, ...skip(2.5) },
    [places[4]!.videoUuid]: { ...moved, ...skip(1.5) },
    [places[5]!.videoUuid]: { ...moved, ...skip(2.5) },
  };
  const batch = await request.post(`/api/projects/${projectUuid}/batches/`, {
    headers,
    data: { protocol_uuid: protocolUuid, overrides },
  });
  expect(batch.status(), await batch.text()).toBe(201);
  batchUuid = ((await batch.json()) as { batch_uuid: string }).batch_uuid;
  await expect
    .poll(
      async () => {
        const answer = await request.get(`/api/projects/${projectUuid}/batches/${batchUuid}/`, { headers });
        return ((await answer.json()) as { status: string }).status;
      },
      { timeout: 180_000 },
    )
    .toBe('finished');
});

async function shoot(page: Page, name: string, theme: string, device: string, fullPage = false) {
  await page.mouse.move(0, 0);
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(OUT, `${name}-${theme}-${device}.png`), fullPage });
}

for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const theme of THEMES) {
    test(`experiments ${device} ${theme}`, async ({ browser }) => {
      test.setTimeout(120_000);
      const context = await browser.newContext({
        viewport,
        colorScheme: theme,
        deviceScaleFactor: device === 'phone' ? 2 : 1,
      });
      await context.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
      const page = await context.newPage();
      await signIn(page, user, { activeProjectUuid: projectUuid });

      await page.goto(`/projects/${projectUuid}/protocols`);
      await expect(page.getByTestId('protocol-row')).toHaveCount(3);
      await shoot(page, 'protocols', theme, device);

      await page.goto(`/projects/${projectUuid}/protocols/${protocolUuid}`);
      await expect(page.getByTestId('protocol-version-row')).toHaveCount(2);
      await expect(page.getByTestId('result-row').first()).toBeVisible();
      await shoot(page, 'protocol', theme, device);

      await page.goto(`/projects/${projectUuid}/batches/new?protocol=${protocolUuid}`);
      await page.getByLabel('The videos of a subject group').check();
      await page.getByLabel('Group', { exact: true }).selectOption('knockout');
      await page.getByRole('button', { name: 'Adjust F08 / F08 day 1' }).click();
      const adjuster = page.getByTestId('video-adjuster');
      await adjuster.getByLabel('Right (px)').fill('100');
      await adjuster.getByLabel('Scale (×)').fill('0.9');
      await expect
        .poll(() => adjuster.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.readyState))
        .toBeGreaterThanOrEqual(2);
      await adjuster.scrollIntoViewIfNeeded();
      await shoot(page, 'batch-new', theme, device);

      await page.goto(`/projects/${projectUuid}/batches/${batchUuid}`);
      await expect(page.getByTestId('result-row')).toHaveCount(6);
      await expect(page.getByTestId('test-row')).toHaveCount(3);
      await expect
        .poll(() =>
          page
            .getByTestId('statistics-plot')
            .getByRole('img')
            .evaluate((img: HTMLImageElement) => img.naturalWidth),
        )
        .toBeGreaterThan(0);
      await shoot(page, 'batch', theme, device, true);
      await context.close();
    });
  }
}
