import type { Page } from '@playwright/test';
import { longSceneVideoPath, uploadReadyVideo, type VideoPlace } from '../support/analysis';
import { createProject, createSubject, createUser, expect, signIn, test } from '../support/fixtures';

/** Issue 20, point 3: one time format, and a clock that agrees with the frame readout. */

const FPS = 30;
const SECONDS = 12;

/** The app's format (lib/format.ts) for frame n's start time at 30 fps, written out independently. */
function frameClock(frame: number): string {
  const millis = Math.floor((frame * 1000) / FPS);
  const seconds = Math.floor(millis / 1000);
  return `0:00:${String(seconds).padStart(2, '0')}.${String(millis % 1000).padStart(3, '0')}`;
}

/** The clock's text: the frame's start time, then the video's length in the same format. */
const clockAt = (text: string) => new RegExp(`^${text.replace('.', '\\.')} / 0:00:1[12]\\.\\d{3}$`);

async function openAnnotator(page: Page, video: VideoPlace) {
  await page.goto(`/projects/${video.projectUuid}/annotator?subject=${video.subjectUuid}&video=${video.videoUuid}`);
  await expect(page.getByRole('heading', { name: 'Annotator' })).toBeVisible();
  await expect
    .poll(() => page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.readyState))
    .toBeGreaterThanOrEqual(2);
}

test('the player clock shows the shown frame’s start time; the Annotator reads frame 150 at 30 fps as 0:05+00f', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'Ada');
  const project = await createProject(request, owner, 'Clock study');
  const subject = await createSubject(request, owner, project.project_uuid, 'M3');
  const video = await uploadReadyVideo(
    request,
    owner,
    project.project_uuid,
    subject.subject_uuid,
    longSceneVideoPath(SECONDS),
    'clock',
  );
  await signIn(page, owner, { activeProjectUuid: project.project_uuid });
  await openAnnotator(page, video);

  const clock = page.getByTestId('player-time');
  const frame = page.getByTestId('player-frame');
  const position = page.getByTestId('annotator-position');
  await expect(frame).toHaveText('frame 0');
  await expect(clock).toHaveText(clockAt(frameClock(0)));
  await expect(position).toHaveText('0:00+00f');

  // Frame by frame past the first second: the clock is always the frame's start, truncated like the readout.
  const next = page.getByRole('button', { name: 'Next frame' });
  for (let n = 1; n <= 31; n++) {
    await next.click();
    await expect(frame).toHaveText(`frame ${n}`);
    await expect(clock).toHaveText(clockAt(frameClock(n)));
  }
  await expect(clock).toHaveText(clockAt('0:00:01.033'));
  await expect(position).toHaveText('0:01+01f');
  // Back one frame: frame 30 starts at exactly one second.
  await page.getByRole('button', { name: 'Previous frame' }).click();
  await expect(frame).toHaveText('frame 30');
  await expect(clock).toHaveText(clockAt('0:00:01.000'));
  await expect(position).toHaveText('0:01+00f');

  // Shift+→ jumps a second at a time: four jumps from frame 30 land on frame 150, 5 s exactly.
  for (let jump = 0; jump < 4; jump++) await page.keyboard.press('Shift+ArrowRight');
  await expect(frame).toHaveText('frame 150');
  await expect(clock).toHaveText(clockAt('0:00:05.000'));
  await expect(position).toHaveText('0:05+00f');
});
