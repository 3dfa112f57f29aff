// The one way the service sends email: nodemailer over SMTP_URL (the dev SMTP
// sink locally, a provider in production). Callers never use it directly from
// a request: they queue an email in the outbox (src/email/service.ts) and a
// workflow sends it with retries.
import nodemailer from 'nodemailer';

export type OutgoingEmail = { messageId: string; to: string; subject: string; text: string };

export type Mailer = { send(email: OutgoingEmail): Promise<void>; close(): void };

export function createMailer(options: { smtpUrl: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    async send(email) {
      await transport.sendMail({
        from: options.from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        // A stable Message-ID lets a receiver drop the duplicate of a retried send.
        messageId: email.messageId,
      });
    },
    close() {
      transport.close();
    },
  };
}
