import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ByteRange, Storage } from './storage.js';

/** Files under one root folder on local disk (DATA_DIR/files in the embedded shape). */
export class LocalStorage implements Storage {
  readonly kind = 'local' as const;

  constructor(private readonly root: string) {}

  /** Resolves a key inside the root; a key that tries to climb out is a programming error. */
  private pathOf(key: string): string {
    const resolved = path.resolve(this.root, key);
    if (!resolved.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`Invalid storage key: ${key}`);
    return resolved;
  }

  async write(key: string, body: Readable | Buffer): Promise<{ size: number }> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    // Write beside the target and rename, so a reader never sees half a file.
    const partial = `${target}.partial-${process.pid}-${Date.now()}`;
    try {
      await pipeline(Buffer.isBuffer(body) ? [body][Symbol.iterator]() : body, createWriteStream(partial));
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return { size: (await stat(target)).size };
  }

  async importFile(key: string, localPath: string): Promise<{ size: number }> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await rename(localPath, target);
    } catch (error) {
      // Another filesystem (EXDEV): copy, then remove the source.
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      // Copy beside the target and rename, so a full disk (ENOSPC) never leaves half a file under the key.
      const partial = `${target}.partial-${process.pid}-${Date.now()}`;
      try {
        await copyFile(localPath, partial);
        await rename(partial, target);
      } catch (copyError) {
        await rm(partial, { force: true });
        throw copyError;
      }
      await unlink(localPath);
    }
    return { size: (await stat(target)).size };
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(key);
    await stat(file);
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async localFile(key: string) {
    const file = this.pathOf(key);
    await stat(file);
    return { path: file, release: async () => {} };
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    if (!prefix.endsWith('/')) throw new Error(`A prefix to delete must end in "/": ${prefix}`);
    await rm(this.pathOf(prefix), { recursive: true, force: true });
  }
}
