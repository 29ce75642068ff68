import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser, TINY_PNG } from '../factories.js';
import { createProjectWithSubject, type ProjectWithSubject, videoMultipart } from '../factories-videos.js';
import { videoFixtures } from '../fixtures/videos.js';
import { createTestApp, type TestApp } from '../test-app.js';
import { fuzzRuns, fuzzSeed, nastyString } from './json-schema-arbitrary.js';
import { databaseSnapshot, filesSnapshot, isErrorBody } from './snapshot.js';

/** An MP4 box header: 32-bit size and type, or size 1 and a 64-bit size after the type. */
function box(type: string, size: number | bigint, body: Buffer = Buffer.alloc(0)): Buffer {
  if (typeof size === 'bigint') {
    const header = Buffer.alloc(16);
    header.writeUInt32BE(1, 0);
    header.write(type, 4, 'latin1');
    header.writeBigUInt64BE(size, 8);
    return Buffer.concat([header, body]);
  }
  const header = Buffer.alloc(8);
  header.writeUInt32BE(size, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

const ftyp = box('ftyp', 20, Buffer.from('isom\0\0\u0002\0isom', 'latin1'));

/** Files that are not readable videos, whatever their name says. */
function badFiles(): { name: string; filename: string; content: Buffer }[] {
  const fixtures = videoFixtures();
  const mp4 = readFileSync(fixtures.h264Mp4);
  const giantFirstBox = Buffer.from(mp4);
  giantFirstBox.writeUInt32BE(0xfffffff0, 0);
  return [
    { name: 'empty', filename: 'empty.mp4', content: Buffer.alloc(0) },
    { name: 'truncated MP4 (index missing)', filename: 'cut.mp4', content: readFileSync(fixtures.truncatedMp4) },
    { name: 'first 2 KB of an MP4', filename: 'head.mp4', content: mp4.subarray(0, 2048) },
    { name: 'text renamed .mp4', filename: 'notes.mp4', content: readFileSync(fixtures.textMp4) },
    { name: 'PNG renamed .mp4', filename: 'picture.mp4', content: TINY_PNG },
    { name: 'PNG renamed .avi', filename: 'picture.avi', content: TINY_PNG },
    {
      name: 'ftyp then a moov box claiming 4 GB',
      filename: 'huge.mp4',
      content: Buffer.concat([ftyp, box('moov', 0xfffffff0, Buffer.alloc(64, 1))]),
    },
    {
      name: 'a 64-bit box size of 2^63-1',
      filename: 'huge64.mp4',
      content: Buffer.concat([box('ftyp', 0x7fffffffffffffffn, Buffer.alloc(32, 2))]),
    },
    { name: 'a real MP4 whose first box claims 4 GB', filename: 'lying.mp4', content: giantFirstBox },
  ];
}

/** Random bytes, sometimes behind the start of a real container. */
function randomFile(mp4: Buffer): fc.Arbitrary<{ filename: string; content: Buffer }> {
  return fc
    .tuple(
      fc.constantFrom(Buffer.alloc(0), ftyp, mp4.subarray(0, 512), TINY_PNG, Buffer.from('RIFF\0\0\0\0AVI LIST')),
      fc.uint8Array({ maxLength: 4096 }),
      fc.constantFrom('.mp4', '.avi', '.mov', '.mkv', '.webm', '.MP4'),
      fc.string({ maxLength: 12 }),
    )
    .map(([prefix, bytes, extension, stem]) => ({
      filename: `${stem}${extension}`,
      content: Buffer.concat([prefix, Buffer.from(bytes)]),
    }));
}

/**
 * Video uploads that are not videos (empty, truncated, renamed text or PNG, giant MP4 boxes, random bytes), by
 * multipart and by tus: a 4xx in the `{errors}` shape, and no row, no stored file and no temp file left behind.
 */
describe('fuzzed video uploads', () => {
  let t: TestApp;
  let owner: TestUser;
  let project: ProjectWithSubject;
  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    owner = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
  });
  afterAll(() => t.close());

  async function expectRefusedAndNothingLeft(
    send: () => Promise<{ status: number; body: string }>,
    label: string,
  ): Promise<void> {
    const before = await databaseSnapshot(t.ctx.db);
    const files = filesSnapshot(t.dataDir);
    const { status, body } = await send();
    const seen = `${label} → ${status} ${body.slice(0, 300)}`;
    expect(status, seen).toBeGreaterThanOrEqual(400);
    expect(status, seen).toBeLessThan(500);
    expect(isErrorBody(JSON.parse(body)), seen).toBe(true);
    expect(await databaseSnapshot(t.ctx.db), `${seen}: the database changed`).toBe(before);
    expect(filesSnapshot(t.dataDir), `${seen}: files were left`).toEqual(files);
  }

  const multipart = async (filename: string, content: Buffer, fields: Record<string, string> = {}) => {
    const response = await t.app.inject({
      method: 'POST',
      url: project.videosUrl,
      ...videoMultipart(content, filename, fields),
      headers: { ...owner.headers, ...videoMultipart(content, filename, fields).headers },
    });
    return { status: response.statusCode, body: response.body };
  };

  const b64 = (value: string) => Buffer.from(value).toString('base64');
  /** Creates a tus upload, sends every byte in one PATCH and answers the final PATCH (or the creation's refusal). */
  async function tus(filename: string, content: Buffer, meta: Record<string, string> = {}) {
    const metadata = { project_uuid: project.projectUuid, subject_uuid: project.subjectUuid, filename, ...meta };
    const created = await fetch(`${t.url}/api/uploads/`, {
      method: 'POST',
      headers: {
        ...owner.headers,
        'tus-resumable': '1.0.0',
        'upload-length': String(content.length),
        'upload-metadata': Object.entries(metadata)
          .map(([key, value]) => `${key} ${b64(value)}`)
          .join(','),
      },
    });
    if (created.status !== 201) return { status: created.status, body: await created.text() };
    const location = created.headers.get('location')!;
    const patched = await fetch(location, {
      method: 'PATCH',
      headers: {
        ...owner.headers,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: content,
    });
    return { status: patched.status, body: await patched.text() };
  }

  for (const file of badFiles()) {
    it(`${file.name}: refused with {errors}, nothing kept (multipart and tus)`, async () => {
      await expectRefusedAndNothingLeft(() => multipart(file.filename, file.content), `multipart ${file.name}`);
      // tus needs at least one byte to finish an upload; an empty file is refused at creation or at its end.
      await expectRefusedAndNothingLeft(() => tus(file.filename, file.content), `tus ${file.name}`);
    });
  }

  it('random bytes behind container headers: refused with {errors}, nothing kept', async () => {
    const mp4 = readFileSync(videoFixtures().h264Mp4);
    await fc.assert(
      fc.asyncProperty(randomFile(mp4), fc.boolean(), async ({ filename, content }, viaTus) => {
        await expectRefusedAndNothingLeft(
          () => (viaTus ? tus(filename, content) : multipart(filename, content)),
          `${viaTus ? 'tus' : 'multipart'} ${JSON.stringify(filename)} (${content.length} bytes)`,
        );
      }),
      { seed: fuzzSeed, numRuns: fuzzRuns(10) },
    );
  });

  it('a real video with hostile text fields: never a 5xx, refused ones leave nothing', async () => {
    const mp4 = readFileSync(videoFixtures().h264Mp4);
    await fc.assert(
      fc.asyncProperty(nastyString, nastyString, fc.boolean(), async (name, recordedAt, viaTus) => {
        const fields = { name: name.slice(0, 2000), recorded_at: recordedAt.slice(0, 200) };
        const before = await databaseSnapshot(t.ctx.db);
        const files = filesSnapshot(t.dataDir);
        const { status, body } = viaTus ? await tus('ok.mp4', mp4, fields) : await multipart('ok.mp4', mp4, fields);
        const seen = `${viaTus ? 'tus' : 'multipart'} ${JSON.stringify(fields).slice(0, 200)} → ${status} ${body.slice(0, 200)}`;
        expect(status, seen).toBeLessThan(500);
        if (status >= 400) {
          expect(isErrorBody(JSON.parse(body)), seen).toBe(true);
          expect(await databaseSnapshot(t.ctx.db), `${seen}: the database changed`).toBe(before);
          expect(filesSnapshot(t.dataDir), `${seen}: files were left`).toEqual(files);
        }
      }),
      { seed: fuzzSeed, numRuns: fuzzRuns(8) },
    );
  });
});
