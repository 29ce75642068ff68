/**
 * A CPU of its own for each single-threaded analysis decode (ADR 023, amendment "one CPU a decode"). With two
 * decodes side by side on two cores, each ffmpeg pinned to a core of its own spent about 9 % less CPU than when the
 * scheduler moved it between cores (it stays in one core's caches and sleeps and wakes far less often), and the
 * 2-worker run took about 6 % less wall time.
 *
 * The claim is host-wide: a file per CPU in a directory of the temporary folder, made with O_EXCL and holding the
 * claiming process's pid, so decodes of other processes (a second worker, parallel tests) never pile onto a CPU
 * another decode holds. A claim whose process has died is taken over. When no allowed CPU is free, or the host has no
 * `taskset` or no /proc (not Linux), the decode runs unpinned, as before: pinning only ever changes speed.
 */
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findOnPath } from './binaries.js';

/** "0-3,8,10-11" (the kernel's list format) → [0, 1, 2, 3, 8, 10, 11]; null when it is not one. */
export function parseCpuList(list: string): number[] | null {
  const cpus: number[] = [];
  for (const part of list.trim().split(',')) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!match) return null;
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    if (last < first || last - first > 4096) return null;
    for (let cpu = first; cpu <= last; cpu++) cpus.push(cpu);
  }
  return cpus;
}

/** The CPUs a process (this one by default) may run on: its affinity, narrowed by a cpuset; null off Linux. */
export function allowedCpus(pid: number | 'self' = 'self'): number[] | null {
  if (process.platform !== 'linux') return null;
  try {
    const list = /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return list === undefined ? null : parseCpuList(list);
  } catch {
    return null;
  }
}

export interface CpuClaim {
  cpu: number;
  /** Gives the CPU back (idempotent). */
  release(): void;
}

/** A claim file not yet holding its pid is young (its maker is between open and write) unless older than this. */
const EMPTY_CLAIM_STALE_MS = 60_000;

/** Whether the process that made `file` still runs (so its CPU is taken). */
function holderAlive(file: string): boolean {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  const pid = Number(text);
  if (!Number.isInteger(pid) || pid <= 0) {
    try {
      return Date.now() - statSync(file).mtimeMs < EMPTY_CLAIM_STALE_MS;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The claims directory, made private to this user; false when it exists as something else or another's. */
function ensureClaimsDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    return stat.isDirectory() && (process.getuid === undefined || stat.uid === process.getuid());
  } catch {
    return false;
  }
}

/**
 * Claims the first free CPU of `cpus` for this process; null when none is free or claims cannot be made here.
 * Two processes taking over the same dead claim at once may both pin to that CPU: slower, never wrong.
 */
export function claimCpu(cpus: readonly number[], dir: string): CpuClaim | null {
  if (!ensureClaimsDir(dir)) return null;
  for (const cpu of cpus) {
    const file = path.join(dir, `cpu-${cpu}`);
    for (let attempt = 0; attempt < 2; attempt++) {
      let fd: number;
      try {
        fd = openSync(file, 'wx', 0o600);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return null;
        if (holderAlive(file)) break;
        try {
          unlinkSync(file);
        } catch {
          // Another process took it over first: try once more.
        }
        continue;
      }
      try {
        writeSync(fd, String(process.pid));
      } finally {
        closeSync(fd);
      }
      let released = false;
      return {
        cpu,
        release() {
          if (released) return;
          released = true;
          try {
            unlinkSync(file);
          } catch {
            // Already gone (taken over as stale): nothing to give back.
          }
        },
      };
    }
  }
  return null;
}

/** What pins a process to a CPU: Linux's `taskset`, looked up once per thread. */
let taskset: string | null | undefined;

/** Where this host's claims live (shared by every process of the app on it that has the same temporary folder). */
export const claimsDir = () => path.join(os.tmpdir(), 'subject-video-analysis-cpus');

/**
 * A CPU for one single-threaded decode, with the command that pins a process to it; null when pinning is not
 * possible here or every allowed CPU has a decode.
 */
export function claimDecodeCpu(): (CpuClaim & { taskset: string }) | null {
  taskset ??= process.platform === 'linux' ? findOnPath('taskset', process.env.PATH) : null;
  if (taskset === null) return null;
  const cpus = allowedCpus();
  if (!cpus || cpus.length < 2) return null;
  const claim = claimCpu(cpus, claimsDir());
  return claim && { ...claim, taskset };
}
