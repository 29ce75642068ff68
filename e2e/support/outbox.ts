import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { e2eEnv } from './env';

type Mail = { file: string; to: string; subject: string; body: string };

function readOutbox(dataDir: string): Mail[] {
  const dir = path.join(dataDir, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  return files.sort().map((file) => {
    const raw = readFileSync(path.join(dir, file), 'utf8');
    const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
    const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? '';
    // Undo quoted-printable soft breaks in case the transport used them.
    const body = rest
      .join('\n\n')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    return { file, to: header('To'), subject: header('Subject'), body };
  });
}

/**
 * The newest link to `pathPrefix` e-mailed to `email` (polls: mail is written asynchronously), from the outbox of the
 * server whose DATA_DIR is `dataDir` (default: the main test server).
 */
export async function linkFromOutbox(email: string, pathPrefix: string, dataDir = e2eEnv().dataDir): Promise<string> {
  let link = '';
  await expect
    .poll(
      () => {
        const mails = readOutbox(dataDir).filter((m) => m.to.toLowerCase().includes(email.toLowerCase()));
        for (const mail of mails.reverse()) {
          const match = new RegExp(`https?://[^\\s"'<>]*${pathPrefix}[^\\s"'<>]*`).exec(mail.body);
          if (match) {
            link = match[0];
            return true;
          }
        }
        return false;
      },
      { message: `an e-mail to ${email} with a ${pathPrefix} link`, timeout: 15_000 },
    )
    .toBe(true);
  return link;
}
