// Email: sent for real through SMTP_URL (nodemailer), or, with no SMTP_URL, written
// as one JSON file {to, subject, text, html} under $DATA_DIR/outbox/ and logged.
import fs from "node:fs/promises";
import path from "node:path";
import crypto from "node:crypto";
import { escapeHtml } from "./http.server";

export type Mail = { to: string; subject: string; text: string; html: string };
export type Mailer = { send(mail: Mail): Promise<void> };

export function createMailer(opts: { smtpUrl?: string; from: string; dataDir: string; log?: (line: string) => void }): Mailer {
  const log = opts.log ?? ((line) => console.log(line));
  if (opts.smtpUrl) {
    let transport: Promise<{ sendMail(m: object): Promise<unknown> }> | undefined;
    return {
      async send(mail) {
        transport ??= import("nodemailer").then((m) => m.default.createTransport(opts.smtpUrl));
        await (await transport).sendMail({ from: opts.from, ...mail });
      },
    };
  }
  const outbox = path.resolve(opts.dataDir, "outbox");
  return {
    async send(mail) {
      await fs.mkdir(outbox, { recursive: true });
      const file = path.join(outbox, `${Date.now()}-${crypto.randomBytes(4).toString("hex")}.json`);
      await fs.writeFile(file, JSON.stringify(mail, null, 2));
      const link = mail.text.match(/https?:\/\/\S+/)?.[0];
      log(`[mail] to ${mail.to}: "${mail.subject}" written to ${file}${link ? `; link: ${link}` : ""}`);
    },
  };
}

export function confirmationMail(to: string, shopTitle: string, link: string): Mail {
  return {
    to,
    subject: `Confirm your sign up to ${shopTitle}`,
    text: `Welcome, rebel.\n\nConfirm your sign up by opening this link:\n${link}\n\nThe link works once and expires in 24 hours. If you did not sign up, ignore this email.\n`,
    html: `<p>Welcome, rebel.</p><p><a href="${escapeHtml(link)}">Confirm your sign up</a></p><p>The link works once and expires in 24 hours. If you did not sign up, ignore this email.</p>`,
  };
}

export function alreadyRegisteredMail(to: string, shopTitle: string, loginUrl: string): Mail {
  return {
    to,
    subject: `You already have an account at ${shopTitle}`,
    text: `Someone (hopefully you) tried to sign up with this email address, which already has an account.\nLog in here: ${loginUrl}\n\nIf this was not you, ignore this email.\n`,
    html: `<p>Someone (hopefully you) tried to sign up with this email address, which already has an account.</p><p><a href="${escapeHtml(loginUrl)}">Log in</a></p><p>If this was not you, ignore this email.</p>`,
  };
}
