import { type ChildProcess, type ChildProcessByStdio, spawn } from 'node:child_process';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { assertGuardedInputs } from './input-policy.js';

/** A child process that failed; `stderrTail` holds its last lines for logs and error messages. */
export class ProcessError extends Error {
  override readonly name = 'ProcessError';
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderrTail: string,
  ) {
    super(message);
  }
}

const STDERR_TAIL_BYTES = 4096;

// ffmpeg children outlive a Node process that exits (a deploy, a crash): kill them with it.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
const STDOUT_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * The one place a child process starts: ffmpeg/ffprobe only, never through a shell, and only with every input
 * opened through the input policy (input-policy.ts: local files, video containers only) — an argument list that
 * would let ffmpeg pick any demuxer or protocol throws before anything runs. The child is killed with this
 * process. A test fails when any other file of src spawns a process.
 */
export function spawnMedia(command: string, args: string[]): ChildProcessByStdio<null, Readable, Readable> {
  assertGuardedInputs(args, { requireInput: path.basename(command).startsWith('ffprobe') });
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  running.add(child);
  child.once('close', () => running.delete(child));
  return child;
}

/**
 * The one place that runs ffmpeg/ffprobe: spawn (never a shell), collect stdout (small outputs only, e.g.
 * ffprobe's JSON or a few raw frames) or stream it to `onStdout`, keep the tail of stderr for errors, and kill the process when `signal` aborts.
 */
export function runProcess(
  command: string,
  args: string[],
  options: {
    signal?: AbortSignal;
    timeoutMs?: number;
    /** Streams stdout here instead of collecting it (long outputs: packet lists, progress lines). */
    onStdout?: (chunk: Buffer) => void;
  } = {},
): Promise<{ stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new ProcessError(`${command} was cancelled`, null, ''));
      return;
    }
    let child: ChildProcessByStdio<null, Readable, Readable>;
    try {
      child = spawnMedia(command, args);
    } catch (error) {
      reject(error);
      return;
    }
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let killedFor: string | undefined;

    const kill = (reason: string) => {
      killedFor ??= reason;
      child.kill('SIGKILL');
    };
    const onAbort = () => kill('cancelled');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = options.timeoutMs ? setTimeout(() => kill('timed out'), options.timeoutMs) : undefined;

    child.stdout.on('data', (chunk: Buffer) => {
      if (options.onStdout) {
        options.onStdout(chunk);
        return;
      }
      stdoutBytes += chunk.length;
      if (stdoutBytes > STDOUT_LIMIT_BYTES) kill('produced too much output');
      else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    const finish = () => {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (error) => {
      finish();
      reject(new ProcessError(`${command} could not start: ${error.message}`, null, ''));
    });
    child.on('close', (code) => {
      finish();
      if (killedFor) reject(new ProcessError(`${command} ${killedFor}`, code, stderr.trim()));
      else if (code !== 0) reject(new ProcessError(`${command} exited with code ${code}`, code, stderr.trim()));
      else resolve({ stdout: Buffer.concat(stdout), stderr });
    });
  });
}
