import { uploadReadyVideo } from '../support/analysis';
import { createProject, createSubject, createUser, expect, signIn, test } from '../support/fixtures';
import { CODED, codedVideoPath, importRunWithEvents, quickScoreUrl, shownFrame } from '../support/quick-score';

test('a deleted subject waits in the Trash with its video and runs; restored, its video plays and its events are there', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const owner = await createUser(request, 'Rosa');
  const project = await createProject(request, owner, 'Trash study');
  const subject = await createSubject(request, owner, project.project_uuid, 'M12');
  const place = await uploadReadyVideo(
    request,
    owner,
    project.project_uuid,
    subject.subject_uuid,
    codedVideoPath(),
    'coded',
  );
  // Two runs: three events, then two.
  const first = await importRunWithEvents(request, owner, place, [45, 75, 105], CODED.frames);
  await importRunWithEvents(request, owner, place, [300, 600], CODED.frames);
  const headers = { Authorization: `Bearer ${owner.access}` };
  const videoPath = `/api/projects/${place.projectUuid}/subjects/${place.subjectUuid}/videos/${place.videoUuid}/`;
  const videoFacts = async () => {
    const video = await request.get(videoPath, { headers });
    expect(video.ok(), await video.text()).toBe(true);
    return (await video.json()) as { size_bytes: number };
  };
  const before = await videoFacts();

  // Delete the subject from the list: the confirmation says where it goes.
  await signIn(page, owner, { activeProjectUuid: project.project_uuid });
  await page.goto(`/projects/${project.project_uuid}/subjects`);
  await page.getByRole('button', { name: 'Actions for M12' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this subject?' });
  await expect(confirm).toContainText('It is moved to the trash for 30 days; restore it from Trash.');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Subject deleted')).toBeVisible();
  await expect(page.getByRole('link', { name: 'M12' })).toHaveCount(0);
  expect((await request.get(videoPath, { headers })).status()).toBe(404);

  // The Trash, from the sidebar: the subject with what it took, who deleted it, when it goes for good.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trash' }).click();
  await expect(page).toHaveURL(`/projects/${project.project_uuid}/trash`);
  const row = page.getByTestId('trash-row').filter({ hasText: 'M12' });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Subject');
  await expect(row.getByTestId('trash-contains')).toHaveText('With 1 video · 2 runs · 5 events');
  await expect(row.getByTestId('trash-by')).toContainText('Rosa');
  const purge = new Date(Date.now() + 30 * 86_400_000).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
  await expect(row.getByTestId('trash-purge')).toContainText(purge);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: testInfo.outputPath('trash.png') });

  // Restore: a toast, the trash is empty, the subject is back in its list (no reload).
  await row.getByRole('button', { name: 'Restore M12' }).click();
  await expect(page.getByText('Subject “M12” restored')).toBeVisible();
  await expect(page.getByText('The trash is empty')).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Subjects' }).click();
  await page.getByRole('link', { name: 'M12' }).click();

  // Its video plays: the player shows the coded frames.
  const videoRow = page.getByTestId('video-row').filter({ hasText: 'coded' });
  await expect(videoRow.locator('[data-status="ready"]')).toBeVisible();
  await videoRow.getByRole('button', { name: 'Open coded' }).click();
  const player = page.getByRole('application', { name: 'Player: coded' });
  const video = page.getByTestId('video-element');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(2);
  await player.getByRole('button', { name: 'Play' }).click();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0.5);
  await player.getByRole('button', { name: 'Pause' }).click();
  await player.getByRole('button', { name: 'Back to start' }).click();
  await player.getByRole('button', { name: 'Next frame' }).click();
  await player.getByRole('button', { name: 'Next frame' }).click();
  await expect(page.getByTestId('player-frame')).toHaveText('frame 2');
  await expect.poll(() => shownFrame(page)).toBe(2);
  // The original is back as it was (its bytes are compared in the server's tests).
  expect((await videoFacts()).size_bytes).toBe(before.size_bytes);

  // Its runs are in the log again, and the first one's events are in Quick Score.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analysis Logs' }).click();
  await expect(page.getByTestId('run-row')).toHaveCount(2);
  await page.goto(quickScoreUrl(place, first.analysisUuid));
  await expect(page.getByTestId('event-position')).toHaveText('Event 1 of 3');
});

test('a member deletes one subject at a time and restores from the Trash; only owners and admins bulk delete or empty it', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await createUser(request, 'Olga');
  const member = await createUser(request, 'Mats');
  const project = await createProject(request, owner, 'Shared study');
  const headers = { Authorization: `Bearer ${owner.access}` };
  const invited = await request.post(`/api/projects/${project.project_uuid}/invitations/`, {
    headers,
    data: { email: member.email, role: 'member' },
  });
  const { invitation_uuid } = (await invited.json()) as { invitation_uuid: string };
  const accepted = await request.post(`/api/projects/${project.project_uuid}/invitations/${invitation_uuid}/accept/`, {
    headers: { Authorization: `Bearer ${member.access}` },
  });
  expect(accepted.ok(), await accepted.text()).toBe(true);
  await createSubject(request, owner, project.project_uuid, 'S01');
  await createSubject(request, owner, project.project_uuid, 'S02');

  await signIn(page, member, { activeProjectUuid: project.project_uuid });
  await page.goto(`/projects/${project.project_uuid}/subjects`);
  await expect(page.getByRole('link', { name: 'S01' })).toBeVisible();
  // No selection for a bulk delete.
  await expect(page.getByLabel('Select S01')).toBeHidden();
  await page.getByRole('button', { name: 'Actions for S01' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Subject deleted')).toBeVisible();

  await page.goto(`/projects/${project.project_uuid}/trash`);
  await expect(page.getByTestId('trash-row')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Empty trash' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Restore S01' }).click();
  await expect(page.getByText('Subject “S01” restored')).toBeVisible();

  // The owner empties the trash: the confirmation counts what goes for good.
  const second = await request.get(`/api/projects/${project.project_uuid}/subjects/?search=S02`, { headers });
  const s02 = ((await second.json()) as { results: { subject_uuid: string }[] }).results[0]!.subject_uuid;
  const gone = await request.delete(`/api/projects/${project.project_uuid}/subjects/${s02}/`, { headers });
  expect(gone.status()).toBe(204);
  await signIn(page, owner, { activeProjectUuid: project.project_uuid });
  await page.goto(`/projects/${project.project_uuid}/trash`);
  await page.getByRole('button', { name: 'Empty trash' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Empty the trash?' });
  await expect(dialog).toContainText('1 item is purged for good');
  await dialog.getByRole('button', { name: 'Empty trash' }).click();
  await expect(page.getByText('Trash emptied')).toBeVisible();
  await expect(page.getByText('The trash is empty')).toBeVisible();
});
