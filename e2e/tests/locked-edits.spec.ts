import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { longSceneVideoPath, uploadReadyVideo } from '../support/analysis';
import { billingEnv } from '../support/env';
import { createProject, createSubject, createUser, expect, signIn, type TestUser, test } from '../support/fixtures';

/**
 * Against the server with billing on: edits made while the project gets locked are kept in the browser, shown as
 * waiting for the renewal, downloadable, and saved once the project is renewed.
 */
const billing = billingEnv();
test.use({ baseURL: billing.baseURL });

const SECONDS = 40;
const auth = (user: TestUser) => ({ Authorization: `Bearer ${user.access}` });

/** Checkout over the API and the test Stripe's Pay (which sends the webhook); waits for the project to be active. */
async function subscribe(request: APIRequestContext, owner: TestUser, projectUuid: string) {
  const checkout = await request.post(`/api/projects/${projectUuid}/subscriptions/checkout/`, { headers: auth(owner) });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const { url } = (await checkout.json()) as { url: string };
  const paid = await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' });
  expect(paid.status).toBe(303);
  await expect
    .poll(async () => {
      const project = await request.get(`/api/projects/${projectUuid}/`, { headers: auth(owner) });
      return ((await project.json()) as { status: string }).status;
    })
    .toBe('active');
}

async function endSubscription(projectUuid: string) {
  const response = await fetch(`${billing.stripeURL}/__test/projects/${projectUuid}/subscription`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'canceled' }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  expect(((await response.json()) as { webhook_status: number }).webhook_status).toBe(200);
}

async function drawBout(page: Page, from: number, to: number) {
  const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
  const y = box.y + 22 + 15;
  await page.mouse.move(box.x + (from / SECONDS) * box.width, y);
  await page.mouse.down();
  await page.mouse.move(box.x + (to / SECONDS) * box.width, y, { steps: 8 });
  await page.mouse.up();
}

test('an Annotator edit refused because the project got locked waits in the browser, can be downloaded, and is saved after renewal', async ({
  page,
  request,
  allowConsole,
}) => {
  test.setTimeout(150_000);
  // The refused PATCH is logged by the browser as a failed request.
  allowConsole(/status of 403/);
  const owner = await createUser(request, 'Lou', billing.dataDir);
  const project = await createProject(request, owner, 'Locked edits', 'pro');
  await subscribe(request, owner, project.project_uuid);
  const subject = await createSubject(request, owner, project.project_uuid, 'M1');
  const video = await uploadReadyVideo(
    request,
    owner,
    project.project_uuid,
    subject.subject_uuid,
    longSceneVideoPath(SECONDS),
    'locked',
  );
  const annotations = `/api/projects/${video.projectUuid}/subjects/${video.subjectUuid}/videos/${video.videoUuid}/annotations/`;
  const created = await request.post(`${annotations}config/`, { headers: auth(owner), data: { name: 'Grooming' } });
  expect(created.status(), await created.text()).toBe(201);
  const track = ((await created.json()) as { annotation_config_uuid: string }).annotation_config_uuid;

  await signIn(page, owner, { activeProjectUuid: project.project_uuid });
  await page.goto(`/projects/${video.projectUuid}/annotator?subject=${video.subjectUuid}&video=${video.videoUuid}`);
  await expect(page.getByRole('heading', { name: 'Annotator' })).toBeVisible();
  await page.getByTestId('timeline-canvas').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

  // The subscription ends while the page is open; the next edit is refused with the locked message.
  await endSubscription(project.project_uuid);
  await drawBout(page, 20, 25);
  const status = page.getByTestId('save-status');
  await expect(status).toHaveAttribute('data-state', 'unsaved');
  await expect(status.getByRole('status')).toHaveText('Waiting: the project is locked (1 change kept in this browser)');
  await expect(status).toContainText('This project is locked: renew its subscription to make changes.');
  await expect(page.getByTestId('track-figures')).toHaveText(/^1 bout/);

  // The waiting edit, as a file.
  const downloading = page.waitForEvent('download');
  await status.getByRole('button', { name: 'Download unsaved changes' }).click();
  const file = await (await downloading).path();
  const saved = JSON.parse(readFileSync(file, 'utf8')) as {
    video_uuid: string;
    edits: { track: string; trackName: string; change: { add: [number, number][] } }[];
  };
  expect(saved.video_uuid).toBe(video.videoUuid);
  expect(saved.edits).toHaveLength(1);
  expect(saved.edits[0]).toMatchObject({ track, trackName: 'Grooming' });
  expect(saved.edits[0]!.change.add).toHaveLength(1);

  // Renewed: "Retry now" saves it; the server has the bout.
  await subscribe(request, owner, project.project_uuid);
  await status.getByRole('button', { name: 'Retry now' }).click();
  await expect(status).toHaveAttribute('data-state', 'saved');
  const ranges = await request.get(`${annotations}${track}/`, { headers: auth(owner) });
  const [bout] = ((await ranges.json()) as { ranges: [number, number][] }).ranges;
  expect(bout![0]).toBeGreaterThan(19);
  expect(bout![1]).toBeLessThan(26);
});
