// The bench parts' shared step: a video uploaded into the project's first subject, waited on until it is ready.
import type { BenchHarness } from './harness.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers of the API, read field by field
type Json = any;

/** Uploads `file` (multipart) to the first subject of `subjectsUrl` and polls (200 ms) until the video is ready. */
export async function uploadReadyVideo(
  h: BenchHarness,
  subjectsUrl: string,
  file: string,
  timeoutMs = 180_000,
): Promise<{ video: Json; videoUrl: string }> {
  const access = await h.login();
  const subject = (await h.api('GET', `${subjectsUrl}?page_size=1`, access)).results[0];
  const videosUrl = `${subjectsUrl}${subject.subject_uuid}/videos/`;
  const upload = await h.uploadMultipart(videosUrl, access, file);
  if (upload.status !== 201) throw new Error(`upload answered ${upload.status}: ${upload.body}`);
  const videoUrl = `${videosUrl}${JSON.parse(upload.body).video_uuid}/`;
  for (const started = performance.now(); ; await new Promise((resolve) => setTimeout(resolve, 200))) {
    const video = await h.api('GET', videoUrl, await h.login());
    if (video.status === 'ready') return { video, videoUrl };
    if (video.status === 'failed') throw new Error(`the video failed processing: ${video.error}`);
    if (performance.now() - started > timeoutMs)
      throw new Error(`the video was not ready within ${timeoutMs / 1000} s`);
  }
}
