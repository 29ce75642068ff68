export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The links the message carries; the outbox mailer logs them so a developer can click through. */
  links: string[];
}

/** Sends e-mail: to .eml files in DATA_DIR/outbox (default) or over SMTP when SMTP_URL is set. */
export interface Mailer {
  readonly kind: 'outbox' | 'smtp';
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}
