/**
 * Fixed-size frames read from a connected pair of Unix sockets made here: the child process (ffmpeg,
 * gray-frames.ts) gets one end as its stdout and writes to it as to a pipe; this process reads the other end. The
 * reason for the pair instead of the stdout pipe node makes: a socket made with `onread` reads into a buffer of
 * the caller's, so each read lands straight at the fill offset of the caller's frame — no Buffer made per 64 KB
 * read, no copy into the frame (ADR 023: about half the reading side's CPU).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface FrameReader {
  /** Where frames land, whole frame after whole frame (the caller's own buffer, reused for every frame). */
  frame: Uint8Array;
  /** The frame buffer holds frame `index`: use it now, it is overwritten once this returns. A throw ends reading. */
  onFrame: (index: number) => void;
}

export interface FramesRead {
  frames: number;
  /** Bytes of an unfinished last frame (the stream ended mid-frame); 0 when it ended cleanly. */
  leftoverBytes: number;
}

export interface FramePair {
  /** The end to hand to the child as its stdout; close it here once the child has it (`release`). */
  childEnd: net.Socket;
  /** Settles when the child's end is closed everywhere: the frames read, or the error `onFrame` threw. */
  read: Promise<FramesRead>;
  /** Closes this process's copy of the child's end (once the child has it, or when no child will get it). */
  release(): void;
}

/**
 * Makes the pair: a listening socket in a fresh private directory (mode 0700, so nobody else can connect first),
 * one connection to it whose reads fill `reader.frame`, and the accepted end for the child. The directory and the
 * listening socket are gone before this resolves.
 */
export async function openFramePair(reader: FrameReader): Promise<FramePair> {
  const { frame, onFrame } = reader;
  const frameBytes = frame.length;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'frames-'));
  const server = net.createServer({ pauseOnConnect: true });
  try {
    const socketPath = path.join(dir, 'frames.sock');
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, resolve);
    });
    const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));

    let filled = 0;
    let frames = 0;
    let failure: Error | undefined;
    const ours = net.connect({
      path: socketPath,
      onread: {
        // Asked before every read: the rest of the frame being filled, so a read never spans two frames.
        buffer: () => frame.subarray(filled),
        callback: (bytes) => {
          filled += bytes;
          if (filled < frameBytes) return true;
          filled = 0;
          try {
            onFrame(frames++);
          } catch (error) {
            failure = error as Error;
            ours.destroy();
            return false;
          }
          return true;
        },
      },
    });
    const read = new Promise<FramesRead>((resolve, reject) => {
      ours.once('error', (error) => {
        failure ??= error;
      });
      ours.once('close', () => (failure ? reject(failure) : resolve({ frames, leftoverBytes: filled })));
    });
    // A failure before the child is running (no connection) settles `read` too: nothing is left pending.
    read.catch(() => {});
    const childEnd = await Promise.race([accepted, read.then(() => Promise.reject(new Error('connection closed')))]);
    return {
      childEnd,
      read,
      release: () => childEnd.destroy(),
    };
  } finally {
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
}
