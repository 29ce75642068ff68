import { type ChildProcess, type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Socket } from 'node:net';
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

/** The stderr an error carries (its last lines: enough for a reason, never a flood). */
const STDERR_TAIL_BYTES = 4096;
/**
 * The stderr a finished process answers, for judging a decode (clean-start.ts): allowed lines are few, so more
 * than this is itself a failure, reported as `stderrOverflow`.
 */
const STDERR_KEEP_BYTES = 64 * 1024;
/** Collected stdout (ffprobe's JSON, a few frames' hashes); longer outputs stream to `onStdout`. */
const STDOUT_LIMIT_BYTES = 16 * 1024 * 1024;

// ffmpeg children outlive a Node process that exits (a deploy, a crash): kill them with it.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts ffmpeg/ffprobe, never through a shell, and only with every input opened through the input policy
 * (input-policy.ts: local files, video containers only) — an argument list that would let ffmpeg pick any demuxer
 * or protocol throws before anything runs. The child is killed with this process. Private: every start goes
 * through runProcess and its one rule for output, exit codes, timeouts and kills.
 */
function spawnMedia(
  command: string,
  args: string[],
  stdout: 'pipe' | Socket,
  pin: ProcessOptions['pin'],
): ChildProcessByStdio<null, Readable | null, Readable> {
  assertGuardedInputs(args, { requireInput: path.basename(command).startsWith('ffprobe') });
  // taskset sets its own affinity and then execs the command: the child's pid, output and exit are the command's.
  const [file, argv] = pin ? [pin.taskset, ['-c', String(pin.cpu), command, ...args]] : [command, args];
  // The stdio tuple's overloads do not cover a stream in it: the child has no stdin, stderr is a pipe, and stdout a
  // pipe or the caller's socket (then `child.stdout` is null).
  const child = spawn(file, argv, { stdio: ['ignore', stdout, 'pipe'], windowsHide: true }) as ChildProcessByStdio<
    null,
    Readable | null,
    Readable
  >;
  running.add(child);
  child.once('close', () => running.delete(child));
  return child;
}

export interface ProcessOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Streams stdout here instead of collecting it (packet lists, progress lines). A throw kills the
   * process and fails the run with the thrown error.
   */
  onStdout?: (chunk: Buffer) => void;
  /**
   * The child's stdout is this socket (one end of a pair whose other end the caller reads: socket-frames.ts)
   * instead of a pipe; `stdout` answers empty. The caller closes its copy once the child runs.
   */
  stdoutSocket?: Socket;
  /** The child's pid once it runs, so a supervisor can kill it even if the caller's thread is stuck. */
  onSpawn?: (pid: number) => void;
  /** Runs the child on this one CPU only, through `taskset` (a claimed CPU: cpu-claims.ts). */
  pin?: { taskset: string; cpu: number };
}

export interface ProcessResult {
  /** Collected stdout (empty when streamed to `onStdout`). */
  stdout: Buffer;
  /** The last STDERR_KEEP_BYTES of stderr. */
  stderr: string;
  /** Whether stderr was longer than what `stderr` holds. */
  stderrOverflow: boolean;
}

/**
 * The one place in src that runs a process (a test fails when any other file starts one): ffmpeg or ffprobe,
 * spawned without a shell (through `taskset` when `pin` asks for one CPU). One rule for all of them: stdout
 * collected (small outputs) or streamed to `onStdout`; stderr kept (its tail goes into every ProcessError); a
 * non-zero exit, a timeout, an abort of `signal`, too much output or a failing `onStdout` kills the child (SIGKILL)
 * and rejects with a ProcessError (or `onStdout`'s error).
 */
export function runProcess(command: string, args: string[], options: ProcessOptions = {}): Promise<ProcessResult> {
  const name = path.basename(command);
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new ProcessError(`${name} was cancelled`, null, ''));
      return;
    }
    let child: ChildProcessByStdio<null, Readable | null, Readable>;
    try {
      child = spawnMedia(command, args, options.stdoutSocket ?? 'pipe', options.pin);
    } catch (error) {
      reject(error);
      return;
    }
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let stderrOverflow = false;
    /** Why the child was killed: a reason (cancelled, timed out…) or the error `onStdout` threw. */
    let killedFor: string | Error | undefined;

    const kill = (reason: string | Error) => {
      killedFor ??= reason;
      child.kill('SIGKILL');
    };
    const onAbort = () => kill('was cancelled');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = options.timeoutMs ? setTimeout(() => kill('timed out'), options.timeoutMs) : undefined;

    child.stdout?.on('data', (chunk: Buffer) => {
      if (killedFor) return;
      if (options.onStdout) {
        try {
          options.onStdout(chunk);
        } catch (error) {
          kill(error as Error);
        }
        return;
      }
      stdoutBytes += chunk.length;
      if (stdoutBytes > STDOUT_LIMIT_BYTES) kill('produced too much output');
      else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (stderr.length > STDERR_KEEP_BYTES) {
        stderrOverflow = true;
        stderr = stderr.slice(-STDERR_KEEP_BYTES);
      }
    });
    const finish = () => {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (error) => {
      finish();
      reject(new ProcessError(`${name} could not start: ${error.message}`, null, ''));
    });
    child.on('close', (code) => {
      finish();
      const tail = stderr.slice(-STDERR_TAIL_BYTES).trim();
      if (killedFor instanceof Error) reject(killedFor);
      else if (killedFor) reject(new ProcessError(`${name} ${killedFor}`, code, tail));
      else if (code !== 0) reject(new ProcessError(`${name} exited with code ${code}`, code, tail));
      else resolve({ stdout: Buffer.concat(stdout), stderr, stderrOverflow });
    });
  });
}

/** Splits streamed stdout into lines, across chunk boundaries; `end` flushes a last line without a newline. */
export function lineReader(onLine: (line: string) => void) {
  let rest = '';
  return {
    push(chunk: Buffer) {
      const lines = (rest + chunk.toString('latin1')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    },
    end() {
      if (rest) onLine(rest);
      rest = '';
    },
  };
}

/**
 * The last meaningful line of ffmpeg's stderr, for a human-readable reason: without the "[codec @ 0x…]" tag
 * and without the (server-side) file path ffmpeg puts in front of some messages.
 */
export function lastLine(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return (lines.at(-1) ?? '')
    .replace(/^\[[^\]]*\]\s*/, '')
    .replace(/^(?:[A-Za-z]:)?[\\/]\S*:\s*/, '')
    .trim();
}
