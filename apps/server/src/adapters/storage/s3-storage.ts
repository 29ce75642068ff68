import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { ByteRange, Storage } from './storage.js';

export interface S3StorageOptions {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Where `localFile()` puts its temporary downloads (DATA_DIR/tmp). */
  tmpDir: string;
}

// 16 MiB parts, 4 at a time: at most ~64 MiB buffered per upload, whatever the file size.
const PART_SIZE = 16 * 1024 * 1024;
const QUEUE_SIZE = 4;

function isNotFound(error: unknown): boolean {
  if (error instanceof S3ServiceException) {
    return error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey';
  }
  return false;
}

/** Files in an S3-compatible bucket (AWS S3, MinIO, R2, …) through AWS SDK v3. */
export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(private readonly options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      // A custom endpoint (MinIO and most S3-compatible stores) wants bucket-in-path URLs.
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
      ...(options.accessKeyId && options.secretAccessKey
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
      // Only send checksums where S3 requires them: many S3-compatible stores reject the newer trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async write(key: string, body: Readable | Buffer, contentType?: string): Promise<{ size: number }> {
    let size = Buffer.isBuffer(body) ? body.length : 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        callback(null, chunk);
      },
    });
    const counted = Buffer.isBuffer(body) ? body : body.pipe(counter);
    // pipe() does not forward errors: a failing source must fail the upload.
    if (!Buffer.isBuffer(body)) body.once('error', (error) => counter.destroy(error));
    // lib-storage sends one PUT for small bodies and a multipart upload for large ones, streaming either way.
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: counted, ContentType: contentType },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    await upload.done();
    return { size };
  }

  async importFile(key: string, localPath: string, contentType?: string): Promise<{ size: number }> {
    const { size } = await stat(localPath);
    await this.write(key, createReadStream(localPath), contentType);
    await unlink(localPath);
    return { size };
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const result = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    );
    if (!result.Body) throw new Error(`Empty body for ${key}`);
    return result.Body as Readable;
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async localFile(key: string): Promise<{ path: string; release(): Promise<void> }> {
    await mkdir(this.options.tmpDir, { recursive: true });
    const file = path.join(this.options.tmpDir, `s3-${randomUUID()}${path.extname(key)}`);
    try {
      await pipeline(await this.read(key), createWriteStream(file));
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
    return { path: file, release: () => rm(file, { force: true }) };
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    if (!prefix.endsWith('/')) throw new Error(`A prefix to delete must end in "/": ${prefix}`);
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: continuationToken }),
      );
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length > 0) {
        // A list page holds at most 1,000 keys, the most one DeleteObjects takes.
        const result = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }),
        );
        if (result.Errors?.length) {
          const first = result.Errors[0];
          throw new Error(`Could not delete ${result.Errors.length} objects (${first?.Key}: ${first?.Message})`);
        }
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  }

  /** Closes the HTTP connections (tests, shutdown). */
  close(): void {
    this.client.destroy();
  }
}
