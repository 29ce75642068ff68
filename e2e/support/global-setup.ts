import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { assetsDir } from './env';

/** Test videos are generated, never committed: a few seconds of moving test pattern. */
export default function globalSetup() {
  const dir = assetsDir();
  mkdirSync(dir, { recursive: true });
  const video = path.join(dir, 'pattern-4s.mp4');
  if (!existsSync(video)) {
    execFileSync(
      'ffmpeg',
      [
        '-loglevel',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=duration=4:size=320x240:rate=30',
        '-pix_fmt',
        'yuv420p',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-movflags',
        '+faststart',
        video,
      ],
      { stdio: 'inherit' },
    );
  }
  const image = path.join(dir, 'logo.png');
  if (!existsSync(image)) {
    execFileSync(
      'ffmpeg',
      ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=128x128', '-frames:v', '1', image],
      { stdio: 'inherit' },
    );
  }
}

/** A video above the 50 MB resumable threshold (noise-free pattern at a high bit rate). */
export function bigVideoPath(): string {
  const file = path.join(assetsDir(), 'pattern-big.mp4');
  if (!existsSync(file)) {
    execFileSync(
      'ffmpeg',
      [
        '-loglevel',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=duration=26:size=1280x720:rate=30',
        '-pix_fmt',
        'yuv420p',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-b:v',
        '24M',
        '-maxrate',
        '24M',
        '-bufsize',
        '8M',
        file,
      ],
      { stdio: 'inherit' },
    );
  }
  return file;
}

export const testImagePath = () => path.join(assetsDir(), 'logo.png');
export const testVideoPath = () => path.join(assetsDir(), 'pattern-4s.mp4');
