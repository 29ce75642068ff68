import type { Readable } from 'node:stream';

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

/**
 * Where files live: DATA_DIR/files on disk, or an S3-compatible bucket. Keys are `/`-separated paths
 * grouped by owner (`projects/{uuid}/...`, `users/{id}/...`) so that deleting a prefix removes everything.
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  /** Streams `body` to `key` (never buffering it whole); resolves with the bytes written. */
  write(key: string, body: Readable | Buffer, contentType?: string): Promise<{ size: number }>;
  /** Moves a finished local file (an upload in DATA_DIR/tmp) into storage; the local file is gone afterwards. */
  importFile(key: string, localPath: string, contentType?: string): Promise<{ size: number }>;
  /** Reads the whole object or one byte range. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Size of the object, or null when it does not exist. */
  stat(key: string): Promise<{ size: number } | null>;
  /**
   * A local file path with the object's content, for tools that need a seekable file (ffmpeg, ffprobe).
   * On disk this is the file itself; on S3 a temporary download that `release()` removes.
   */
  localFile(key: string): Promise<{ path: string; release(): Promise<void> }>;
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix` (which should end in `/`). */
  deletePrefix(prefix: string): Promise<void>;
}
