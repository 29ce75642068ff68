/**
 * Host-wide CPU claims for single-threaded decodes (ADR 023, one CPU a decode): one claim a CPU across processes,
 * a dead holder's claim taken over, nothing claimed where the directory is not this user's own.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimCpu, parseCpuList } from './cpu-claims.js';

let tmp: string;
let dir: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'cpu-claims-test-'));
  dir = path.join(tmp, 'claims');
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

/** A pid no process has (above Linux's largest pid_max, 2^22). */
const DEAD_PID = 4_194_304 + 12_345;

describe('parseCpuList', () => {
  it('reads the kernel’s list format and refuses anything else', () => {
    expect(parseCpuList('0-3,8,10-11')).toEqual([0, 1, 2, 3, 8, 10, 11]);
    expect(parseCpuList('5\n')).toEqual([5]);
    for (const bad of ['', '3-1', 'a', '0,,1', '0-', '1-2-3']) expect(parseCpuList(bad), bad).toBeNull();
  });
});

describe('claimCpu', () => {
  it('gives each claim a CPU of its own, none when all are taken, and a released CPU again', () => {
    const first = claimCpu([2, 5], dir)!;
    const second = claimCpu([2, 5], dir)!;
    expect([first.cpu, second.cpu]).toEqual([2, 5]);
    expect(claimCpu([2, 5], dir)).toBeNull();
    // The claim names its process, for the others to check.
    expect(readFileSync(path.join(dir, 'cpu-2'), 'utf8')).toBe(String(process.pid));
    first.release();
    first.release();
    expect(claimCpu([2, 5], dir)?.cpu).toBe(2);
    second.release();
    expect(readdirSync(dir)).toEqual(['cpu-2']);
  });

  it('takes over the claim of a process that has died, and leaves a living one’s alone', () => {
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(path.join(dir, 'cpu-0'), String(DEAD_PID));
    writeFileSync(path.join(dir, 'cpu-1'), String(process.ppid));
    const claim = claimCpu([1, 0], dir)!;
    expect(claim.cpu).toBe(0);
    expect(readFileSync(path.join(dir, 'cpu-0'), 'utf8')).toBe(String(process.pid));
    expect(readFileSync(path.join(dir, 'cpu-1'), 'utf8')).toBe(String(process.ppid));
  });

  it('counts an empty claim as being made, until it is a minute old', () => {
    mkdirSync(dir, { mode: 0o700 });
    const file = path.join(dir, 'cpu-3');
    writeFileSync(file, '');
    expect(claimCpu([3], dir)).toBeNull();
    const old = new Date(Date.now() - 120_000);
    utimesSync(file, old, old);
    expect(claimCpu([3], dir)?.cpu).toBe(3);
  });

  it('claims nothing where the directory is a link or a file', () => {
    const elsewhere = path.join(tmp, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, dir);
    expect(claimCpu([0], dir)).toBeNull();
    expect(readdirSync(elsewhere)).toEqual([]);
    const file = path.join(tmp, 'a-file');
    writeFileSync(file, '');
    expect(claimCpu([0], file)).toBeNull();
  });
});
