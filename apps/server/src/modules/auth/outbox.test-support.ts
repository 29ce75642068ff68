import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

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
  return readdirSync(dir)
    .filter((name) => name.endsWith('.eml'))
    .map((name) => path.join(dir, name))
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
    });
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
