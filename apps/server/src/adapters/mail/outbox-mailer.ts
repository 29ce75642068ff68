import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Mailer, MailMessage } from './mailer.js';

/** Encodes a header value as RFC 2047 UTF-8 when it is not plain ASCII. */
function headerValue(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value).toString('base64')}?=`;
}

/** Writes each message as an .eml file in DATA_DIR/outbox and logs its links (no SMTP configured). */
export class OutboxMailer implements Mailer {
  readonly kind = 'outbox' as const;

  constructor(
    private readonly directory: string,
    private readonly from: string,
    private readonly logger: FastifyBaseLogger,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    const date = new Date();
    const file = path.join(this.directory, `${date.toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
    const eml = [
      `From: ${headerValue(this.from)}`,
      `To: ${message.to}`,
      `Subject: ${headerValue(message.subject)}`,
      `Date: ${date.toUTCString()}`,
      `Message-ID: <${randomUUID()}@outbox.local>`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      message.text,
      '',
    ].join('\r\n');
    await writeFile(file, eml);
    this.logger.info(
      { to: message.to, subject: message.subject, file, links: message.links },
      'e-mail written to outbox',
    );
  }

  async close(): Promise<void> {}
}
