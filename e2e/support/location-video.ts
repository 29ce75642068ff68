import { execFileSync } from 'node:child_process';
import { existsSync, renameSync } from 'node:fs';
import path from 'node:path';
import { assetsDir } from './env';

/**
 * A dark 30×30 square on a light, flat 320×240 arena at 30 fps for 4 s: its top-left at (20, 100) for frames
 * 0–35, (250, 100) for frames 36–71, (20, 180) for frames 72–119. No place holds it half the time or more, so the
 * median reference is the empty arena. With the zones Left (x < 160) and Right (x ≥ 160): Left holds frames 0–35
 * and 72–119 (84 frames, 2.8 s, 70 %; entries 2, latency 0), Right frames 36–71 (36 frames, 1.2 s, 30 %;
 * entries 1, latency 1.2 s).
 */
export const MOVING_SQUARE = {
  width: 320,
  height: 240,
  fps: 30,
  seconds: 4,
  zones: {
    Left: { time_s: 2.8, percent: 70, entries: 2, latency_s: 0 },
    Right: { time_s: 1.2, percent: 30, entries: 1, latency_s: 1.2 },
  },
} as const;

export function movingSquareVideoPath(): string {
  const file = path.join(assetsDir(), 'moving-square-4s.mp4');
  if (existsSync(file)) return file;
  const { width, height, fps, seconds } = MOVING_SQUARE;
  // t is exact per frame (n / fps): 1.2 s is frame 36, 2.4 s frame 72.
  const x = 'if(lt(t,1.199),20,if(lt(t,2.399),250,20))';
  const y = 'if(lt(t,2.399),100,180)';
  const partial = `${file}.${process.pid}.partial.mp4`;
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-v', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `color=c=0xd0d0d0:s=${width}x${height}:r=${fps}:d=${seconds}`],
    ...['-f', 'lavfi', '-i', `color=c=0x181818:s=30x30:r=${fps}:d=${seconds}`],
    '-filter_complex',
    `[0][1]overlay=x='${x}':y='${y}':eval=frame:shortest=1,format=yuv420p`,
    ...['-c:v', 'libx264', '-preset', 'fast', '-crf', '12', '-g', '30', '-pix_fmt', 'yuv420p'],
    ...['-movflags', '+faststart', '-f', 'mp4', partial],
  ]);
  renameSync(partial, file);
  return file;
}
