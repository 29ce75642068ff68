import { execFileSync } from 'node:child_process';
import { existsSync, renameSync } from 'node:fs';
import path from 'node:path';
import { assetsDir } from './env';

/**
 * The movement-detection scene of the server's analysis fixtures (apps/server/test/fixtures/videos.ts): a still
 * texture where a dark 30×30 square on the left jumps at frames 30, 60 and 105 (1.0 s, 2.0 s, 3.5 s) and a second
 * square on the right (x 230–320) slides all the time. An ROI over x 0–200 sees only the jumps.
 */
export const JUMPS = {
  width: 320,
  height: 240,
  fps: 30,
  seconds: 5,
  frames: 150,
  jumpTimes: [1.0, 2.0, 3.5],
  leftRoi: { x: 0, y: 0, width: 200, height: 240 },
} as const;

export function jumpsVideoPath(): string {
  const file = path.join(assetsDir(), 'jumps-5s.mp4');
  if (existsSync(file)) return file;
  const { width, height, fps, seconds } = JUMPS;
  const [a, b, c] = JUMPS.jumpTimes;
  // t is exact per frame (n / fps); the jumps happen at frame starts.
  const leftX = `if(lt(t,${a - 0.001}),40,if(lt(t,${b - 0.001}),120,if(lt(t,${c - 0.001}),40,120)))`;
  const slideX = '230+60*abs(sin(t*2))';
  const partial = `${file}.${process.pid}.partial.mp4`;
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-v', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `nullsrc=s=${width}x${height}:r=${fps}:d=${seconds}`],
    ...['-f', 'lavfi', '-i', `color=c=0x101010:s=30x30:r=${fps}:d=${seconds}`],
    '-filter_complex',
    [
      // The texture is computed once (geq is slow) and its frame repeated for the whole clip.
      `[0]trim=end_frame=1,geq=lum='128+50*sin(X/6)*cos(Y/9)+30*sin((X+Y)/23)':cb=128:cr=128,format=yuv420p,loop=loop=${seconds * fps - 1}:size=1:start=0,setpts=N/${fps}/TB[bg]`,
      `[bg][1]overlay=x='${leftX}':y=100:eval=frame[one]`,
      `[one][1]overlay=x='${slideX}':y=60:eval=frame:shortest=1`,
    ].join(';'),
    ...['-c:v', 'libx264', '-preset', 'fast', '-crf', '16', '-bf', '2', '-g', '48', '-pix_fmt', 'yuv420p'],
    ...['-movflags', '+faststart', '-f', 'mp4', partial],
  ]);
  renameSync(partial, file);
  return file;
}
