/**
 * The spawn guard (issue 21): the media adapter is the only way to ffmpeg/ffprobe, and run-process.ts is the one
 * module that starts a process — so every start goes through the input policy and one rule for stderr, exit
 * codes, timeouts and kills. Tests are not checked (they generate their videos with ffmpeg); src/scripts is
 * developer tooling (npm run gen:api runs npm), never loaded by the server or a worker, and never runs ffmpeg.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '../..');
const PROCESS_MODULE = 'adapters/media/run-process.ts';

/** Why `file` (relative to src) breaks the rule, or nothing. */
function offences(file: string, text: string): string[] {
  const found: string[] = [];
  const inScripts = file.startsWith('scripts/');
  if (file !== PROCESS_MODULE && !inScripts) {
    // Any mention as a module name: import, require, dynamic import, createRequire.
    if (/['"`](node:)?child_process['"`]/.test(text)) found.push('imports child_process');
    if (/(?<![.\w])(spawn|spawnSync|exec|execSync|execFile|execFileSync|fork)\s*\(/.test(text)) {
      found.push('starts a process');
    }
  }
  if (inScripts && /\bff(mpeg|probe)\b/.test(text)) found.push('runs ffmpeg/ffprobe from a script');
  // Outside the adapter nobody runs a process through it by hand: modules call the Media port.
  if (!file.startsWith('adapters/media/') && /\b(runProcess|spawnMedia)\b/.test(text)) {
    found.push('runs ffmpeg/ffprobe past the Media port');
  }
  return found;
}

describe('the one place that starts processes', () => {
  const files = (readdirSync(src, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => entry.isFile() && /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name))
    .map((entry) => path.relative(src, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));

  it('no file of src but run-process.ts starts a process, and none outside the media adapter runs ffmpeg', () => {
    expect(files).toContain(PROCESS_MODULE);
    const found = files.flatMap((file) =>
      offences(file, readFileSync(path.join(src, file), 'utf8')).map((why) => `${file}: ${why}`),
    );
    expect(found).toEqual([]);
  });

  it('the guard catches every way to start one', () => {
    const module = 'modules/analysis/engine/movement.ts';
    expect(offences(module, "import { spawn } from 'node:child_process';")).toContain('imports child_process');
    expect(offences(module, "const cp = await import('child_process');")).toContain('imports child_process');
    expect(offences(module, "const cp = require('node:child_process');")).toContain('imports child_process');
    for (const call of ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'fork']) {
      expect(offences(module, `${call} ('ffmpeg', [])`), call).toContain('starts a process');
    }
    expect(offences(module, "import { spawnMedia } from '../../../adapters/media/run-process.js';")).toContain(
      'runs ffmpeg/ffprobe past the Media port',
    );
    expect(offences('modules/videos/video.playback.ts', 'await runProcess(binaries.ffmpeg, args);')).toContain(
      'runs ffmpeg/ffprobe past the Media port',
    );
    expect(offences('scripts/x.ts', "execFileSync('ffmpeg', ['-i', f]);")).toContain(
      'runs ffmpeg/ffprobe from a script',
    );
    // What is allowed: a regular expression's exec, the process module itself, the adapter running a process.
    expect(offences(module, '/ffmpeg version (\\S+)/.exec(text)')).toEqual([]);
    expect(offences(PROCESS_MODULE, "import { spawn } from 'node:child_process'; spawn(c, a);")).toEqual([]);
    expect(offences('adapters/media/gray-frames.ts', 'await runProcess(ffmpeg, args);')).toEqual([]);
  });
});
