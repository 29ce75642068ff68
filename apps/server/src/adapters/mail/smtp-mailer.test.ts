import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import { SmtpMailer } from './smtp-mailer.js';

interface Received {
  from: string;
  to: string[];
  user: string | undefined;
  raw: string;
}

/** Undoes quoted-printable soft line breaks and escapes, so long links can be searched for. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

describe('SmtpMailer', () => {
  const received: Received[] = [];
  let server: SMTPServer;
  let port: number;

  beforeAll(async () => {
    server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === 'mailer' && auth.password === 's3cret') return callback(null, { user: auth.username });
        return callback(new Error('Invalid username or password'));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            user: session.user,
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('delivers the message with its recipient, subject, sender and link, authenticating with SMTP_URL', async () => {
    const mailer = new SmtpMailer(
      `smtp://mailer:s3cret@127.0.0.1:${port}`,
      'Video Analysis <no-reply@lab.test>',
      createLogger('silent'),
    );
    expect(mailer.kind).toBe('smtp');
    const link = `http://localhost:8000/auth/confirm-verification/${'k'.repeat(80)}`;
    await mailer.send({
      to: 'ada@lab.test',
      subject: 'Confirm your e-mail address',
      text: `Open ${link}`,
      links: [link],
    });
    await mailer.close();

    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail!.to).toEqual(['ada@lab.test']);
    expect(mail!.from).toBe('no-reply@lab.test');
    expect(mail!.user).toBe('mailer');
    expect(mail!.raw).toMatch(/^Subject: Confirm your e-mail address\r?$/m);
    expect(decodeQuotedPrintable(mail!.raw)).toContain(link);
  });

  it('rejects when the server refuses the credentials', async () => {
    const mailer = new SmtpMailer(`smtp://mailer:wrong@127.0.0.1:${port}`, 'no-reply@lab.test', createLogger('silent'));
    await expect(mailer.send({ to: 'ada@lab.test', subject: 'x', text: 'y', links: [] })).rejects.toThrow();
    await mailer.close();
  });
});
