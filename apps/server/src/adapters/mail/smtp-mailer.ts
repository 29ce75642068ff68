import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from './mailer.js';

/** Sends e-mail over SMTP, configured by SMTP_URL (e.g. `smtps://user:pass@smtp.example.org:465`) and MAIL_FROM. */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    private readonly logger: FastifyBaseLogger,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    const info = await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
    });
    // The links carry secrets (verification keys, reset tokens): never logged here.
    this.logger.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'e-mail sent over SMTP');
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
