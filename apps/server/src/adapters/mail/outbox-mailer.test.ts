import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import { OutboxMailer } from './outbox-mailer.js';

describe('OutboxMailer', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'outbox-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes each message as an .eml file in DATA_DIR/outbox containing the link', async () => {
    const outbox = path.join(dataDir, 'outbox');
    const mailer = new OutboxMailer(outbox, 'Video Analysis <no-reply@lab.test>', createLogger('silent'));
    const link = 'http://localhost:8000/auth/confirm-password-reset/MQ/abc123';
    await mailer.send({ to: 'ada@lab.test', subject: 'Réinitialiser', text: `Reset: ${link}`, links: [link] });
    await mailer.send({ to: 'bob@lab.test', subject: 'Second', text: 'no link', links: [] });

    const files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(2);
    const emls = files.map((f) => readFileSync(path.join(outbox, f), 'utf8'));
    const first = emls.find((eml) => eml.includes('To: ada@lab.test'));
    expect(first).toBeDefined();
    expect(first).toContain(link);
    expect(first).toContain('From: Video Analysis <no-reply@lab.test>');
    // Non-ASCII subjects are RFC 2047 encoded.
    expect(first).toContain(`Subject: =?UTF-8?B?${Buffer.from('Réinitialiser').toString('base64')}?=`);
  });
});
