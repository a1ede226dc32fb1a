import fs from "node:fs/promises";
import path from "node:path";
import crypto from "node:crypto";
import { escapeHtml } from "./http.server";

export type Mail = { to: string; subject: string; text: string; html: string };
export type Mailer = { send(mail: Mail): Promise<void> };

export function createMailer(opts: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  log?: (line: string) => void;
  /** Development only: a link is a live secret. */
  logLinks?: boolean;
}): Mailer {
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
      // Written aside, then renamed: whoever reads the outbox never sees half a mail.
      await fs.writeFile(`${file}.part`, JSON.stringify(mail, null, 2));
      await fs.rename(`${file}.part`, file);
      const link = opts.logLinks ? mail.text.match(/https?:\/\/\S+/)?.[0] : undefined;
      log(`[mail] to ${mail.to}: "${mail.subject}" written to ${file}${link ? `; link: ${link}` : ""}`);
    },
  };
}

export type MailBlock = string | { label: string; href: string } | { list: string[] };

export function composeMail(to: string, subject: string, shopTitle: string, blocks: MailBlock[]): Mail {
  const text = blocks
    .map((b) =>
      typeof b === "string"
        ? b
        : "href" in b
          ? `${b.label}:\n${b.href}`
          : b.list.map((item, i) => `${i + 1}. ${item}`).join("\n"),
    )
    .join("\n\n");
  const html = blocks
    .map((b) =>
      typeof b === "string"
        ? `<p>${escapeHtml(b).replace(/\n/g, "<br>")}</p>`
        : "href" in b
          ? `<p><a href="${escapeHtml(b.href)}">${escapeHtml(b.label)}</a></p>`
          : `<ol>${b.list.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ol>`,
    )
    .join("");
  return {
    to,
    subject,
    text: `${shopTitle}\n\n${text}\n`,
    html: `<!doctype html><html><body><h1>${escapeHtml(shopTitle)}</h1>${html}</body></html>`,
  };
}

export const confirmationMail = (to: string, shopTitle: string, link: string): Mail =>
  composeMail(to, `Confirm your sign up to ${shopTitle}`, shopTitle, [
    "Welcome, rebel.",
    { label: "Confirm your sign up by opening this link", href: link },
    "The link works once and expires in 24 hours. If you did not sign up, ignore this email.",
  ]);

export const alreadyRegisteredMail = (to: string, shopTitle: string, loginUrl: string): Mail =>
  composeMail(to, `You already have an account at ${shopTitle}`, shopTitle, [
    "Someone (hopefully you) tried to sign up with this email address, which already has an account.",
    { label: "Log in here", href: loginUrl },
    "If this was not you, ignore this email.",
  ]);

export const recoveryMail = (to: string, shopTitle: string, link: string): Mail =>
  composeMail(to, `Reset your password at ${shopTitle}`, shopTitle, [
    "Someone (hopefully you) asked to reset the password of your account.",
    { label: "Choose a new password by opening this link", href: link },
    "The link works once and expires in 1 hour. If you did not ask for it, ignore this email: your password stays as it is.",
  ]);

export const emailChangeMail = (to: string, shopTitle: string, link: string): Mail =>
  composeMail(to, `Confirm your new email at ${shopTitle}`, shopTitle, [
    "Someone (hopefully you) asked to use this address for their account.",
    { label: "Confirm your new email by opening this link", href: link },
    "The link works once and expires in 1 hour. Until it is opened, the account keeps its old address. If you did not ask for it, ignore this email.",
  ]);

export const emailChangeNoticeMail = (to: string, shopTitle: string, newEmail: string): Mail =>
  composeMail(to, `Your email at ${shopTitle} is about to change`, shopTitle, [
    `Someone (hopefully you) asked to change the email of your account to ${newEmail}.`,
    "Nothing changes until the link sent to the new address is opened; until then you log in and reset your password with this address.",
    "If this was not you, log in and change your password.",
  ]);

export const accountDeletedMail = (to: string, shopTitle: string): Mail =>
  composeMail(to, `Your account at ${shopTitle} is deleted`, shopTitle, [
    "Your account was deleted, as you asked: your username, this email address, your sessions and your messages are gone.",
    "Orders not started and unpaid were cancelled. Your orders stay in the shop's books without your name, email or note (tax law).",
    "You can sign up again with this address at any time.",
  ]);
