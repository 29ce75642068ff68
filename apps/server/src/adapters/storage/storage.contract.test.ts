import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import type { Storage } from './storage.js';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** A deterministic body bigger than one S3 multipart part would be if parts were small. */
const pattern = (size: number) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 7 + 3) % 251));

interface Harness {
  storage: Storage;
  tmp: string;
  close(): Promise<void>;
}

/** The same assertions for every Storage adapter: what the app relies on, nothing adapter-specific. */
function storageContract(name: string, open: () => Promise<Harness>) {
  describe(`${name} storage contract`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await open();
    });
    afterAll(() => h.close());

    it('writes a buffer and a stream, reads them back whole, and reports sizes', async () => {
      const small = Buffer.from('hello storage');
      expect(await h.storage.write('a/one.txt', small, 'text/plain')).toEqual({ size: small.length });
      expect(await readAll(await h.storage.read('a/one.txt'))).toEqual(small);

      const big = pattern(300_000);
      const chunks = [big.subarray(0, 100_000), big.subarray(100_000, 250_000), big.subarray(250_000)];
      expect(await h.storage.write('a/two.bin', Readable.from(chunks))).toEqual({ size: big.length });
      expect(await readAll(await h.storage.read('a/two.bin'))).toEqual(big);
      expect(await h.storage.stat('a/two.bin')).toEqual({ size: big.length });
    });

    it('reads byte ranges (inclusive ends)', async () => {
      const body = pattern(10_000);
      await h.storage.write('r/file.bin', body);
      // (Not 0-0: s3rver answers "bytes=0-0" with the whole object, which S3 itself does not.)
      expect(await readAll(await h.storage.read('r/file.bin', { start: 0, end: 1 }))).toEqual(body.subarray(0, 2));
      expect(await readAll(await h.storage.read('r/file.bin', { start: 100, end: 1099 }))).toEqual(
        body.subarray(100, 1100),
      );
      expect(await readAll(await h.storage.read('r/file.bin', { start: 9_990, end: 9_999 }))).toEqual(
        body.subarray(9_990),
      );
    });

    it('answers stat null for a missing key and rejects reading one', async () => {
      expect(await h.storage.stat('missing/nothing.bin')).toBeNull();
      await expect(h.storage.read('missing/nothing.bin').then(readAll)).rejects.toThrow();
    });

    it('deletes one key, and deleting a missing key is not an error', async () => {
      await h.storage.write('d/x.txt', Buffer.from('x'));
      await h.storage.delete('d/x.txt');
      expect(await h.storage.stat('d/x.txt')).toBeNull();
      await expect(h.storage.delete('d/x.txt')).resolves.toBeUndefined();
    });

    it('deletes everything under a prefix and nothing beside it', async () => {
      await h.storage.write('p/videos/1/original.mp4', Buffer.from('1'));
      await h.storage.write('p/videos/1/thumbnail.jpg', Buffer.from('2'));
      await h.storage.write('p/videos/1/deep/more.bin', Buffer.from('3'));
      await h.storage.write('p/videos/10/original.mp4', Buffer.from('4'));
      await h.storage.deletePrefix('p/videos/1/');
      expect(await h.storage.stat('p/videos/1/original.mp4')).toBeNull();
      expect(await h.storage.stat('p/videos/1/thumbnail.jpg')).toBeNull();
      expect(await h.storage.stat('p/videos/1/deep/more.bin')).toBeNull();
      expect(await h.storage.stat('p/videos/10/original.mp4')).toEqual({ size: 1 });
      await expect(h.storage.deletePrefix('p/videos/1')).rejects.toThrow(/must end/);
      await expect(h.storage.deletePrefix('never/was/')).resolves.toBeUndefined();
    });

    it('imports a local file (the local file is gone afterwards)', async () => {
      const local = path.join(h.tmp, 'upload.bin');
      const body = pattern(50_000);
      writeFileSync(local, body);
      expect(await h.storage.importFile('i/original.bin', local, 'application/octet-stream')).toEqual({
        size: body.length,
      });
      expect(existsSync(local)).toBe(false);
      expect(await readAll(await h.storage.read('i/original.bin'))).toEqual(body);
    });

    it('gives a local file path with the content, for ffmpeg', async () => {
      const body = pattern(20_000);
      await h.storage.write('l/video.mp4', body);
      const local = await h.storage.localFile('l/video.mp4');
      expect(readFileSync(local.path)).toEqual(body);
      expect(path.extname(local.path)).toBe('.mp4');
      await local.release();
      // The stored object is untouched by release().
      expect(await h.storage.stat('l/video.mp4')).toEqual({ size: body.length });
      await expect(h.storage.localFile('l/missing.mp4')).rejects.toThrow();
    });
  });
}

storageContract('local', async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'storage-local-'));
  return {
    storage: new LocalStorage(path.join(tmp, 'files')),
    tmp,
    close: async () => rmSync(tmp, { recursive: true, force: true }),
  };
});

storageContract('s3 (s3rver)', async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'storage-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    directory: path.join(tmp, 's3rver'),
    silent: true,
    configureBuckets: [{ name: 'videos-test', configs: [] }],
  });
  const { port } = await server.run();
  const storage = new S3Storage({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    bucket: 'videos-test',
    // s3rver's built-in credentials.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    tmpDir: path.join(tmp, 'tmp'),
  });
  return {
    storage,
    tmp,
    async close() {
      storage.close();
      await server.close();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
});
