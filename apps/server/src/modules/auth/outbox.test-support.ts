import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../../context.js';

/** Helpers for tests that follow e-mailed links through DATA_DIR/outbox (the mailer used without SMTP_URL). */

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  text: string;
}

function decodeHeader(value: string): string {
  return value.replace(/=\?UTF-8\?B\?([^?]*)\?=/gi, (_m, b64: string) => Buffer.from(b64, 'base64').toString('utf8'));
}

/** Every message in the outbox, oldest first. */
export function readOutbox(dataDir: string): OutboxMail[] {
  const dir = path.join(dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  return (
    readdirSync(dir)
      .filter((name) => name.endsWith('.eml'))
      .map((name) => path.join(dir, name))
      // A file the mailer is still writing has no body yet.
      .filter((file) => readFileSync(file, 'utf8').includes('\r\n\r\n'))
      .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs || a.localeCompare(b))
      .map((file) => {
        const raw = readFileSync(file, 'utf8');
        const split = raw.indexOf('\r\n\r\n');
        const headers = raw.slice(0, split).split('\r\n');
        const header = (name: string) =>
          decodeHeader(
            headers
              .find((line) => line.toLowerCase().startsWith(`${name}:`))
              ?.slice(name.length + 1)
              .trim() ?? '',
          );
        return { file, to: header('to'), subject: header('subject'), text: raw.slice(split + 4) };
      })
  );
}

export function mailsTo(dataDir: string, to: string): OutboxMail[] {
  return readOutbox(dataDir).filter((mail) => mail.to.toLowerCase() === to.toLowerCase());
}

/** The last message sent to `to`; fails the test when there is none. */
export function lastMailTo(dataDir: string, to: string): OutboxMail {
  const mails = mailsTo(dataDir, to);
  const last = mails.at(-1);
  if (!last) throw new Error(`no e-mail to ${to} in the outbox`);
  return last;
}

/** The first link in `text` that starts with `prefix`. */
export function linkIn(text: string, prefix: string): string {
  const link = text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!link) throw new Error(`no link starting with ${prefix} in the e-mail`);
  return link;
}

/**
 * Waits until the outbox holds `count` messages to `to` and answers the last: sign-up, verification and reset e-mails
 * are sent by a job (the test app needs `workers: true`).
 */
export async function waitForMailTo(dataDir: string, to: string, count = 1, timeoutMs = 15_000): Promise<OutboxMail> {
  const started = Date.now();
  for (;;) {
    const mails = mailsTo(dataDir, to);
    if (mails.length >= count) return mails.at(-1)!;
    if (Date.now() - started > timeoutMs)
      throw new Error(`${mails.length} of ${count} e-mails to ${to} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until no auth e-mail job is waiting or running, so a test can assert that one sent nothing. */
export async function authMailSettled(jobs: AppContext['jobs'], timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while ((await jobs.liveJobKeys('kind')).size > 0) {
    if (Date.now() - started > timeoutMs) throw new Error(`auth e-mail jobs still pending after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
