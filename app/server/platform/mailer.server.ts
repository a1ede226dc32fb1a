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

/** What an order's email shows of its tape's cover: the codename and the design's colour. */
export type MailCover = { code: string; codename: string | null; colour: string };

// One layout for every HTML email, in the shop's colours: tables and inline styles, as mail clients
// render them; a phone's width through the viewport; the main link a button a thumb can hit.
const INK = "#0f0d14";
const ACID = "#ffd23f";
const TEXT = "#1b1724";
const MUTED = "#5b5566";
const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";

const button = (label: string, href: string) =>
  `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:20px 0"><tr>` +
  `<td style="border-radius:6px;background:${INK}">` +
  `<a href="${escapeHtml(href)}" style="display:inline-block;padding:12px 20px;${FONT}font-size:16px;font-weight:bold;line-height:1.3;color:${ACID};text-decoration:none;border-radius:6px">${escapeHtml(label)}</a>` +
  `</td></tr></table>`;

const link = (label: string, href: string) =>
  `<p style="margin:0 0 14px"><a href="${escapeHtml(href)}" style="color:${TEXT};font-weight:bold;text-decoration:underline">${escapeHtml(label)}</a></p>`;

/** The email's first link is its button; any after it are plain links, so one action leads. */
const htmlBlock = (b: MailBlock, i: number, blocks: MailBlock[]) =>
  typeof b === "string"
    ? `<p style="margin:0 0 14px">${escapeHtml(b).replace(/\n/g, "<br>")}</p>`
    : "href" in b
      ? blocks.findIndex((x) => typeof x !== "string" && "href" in x) === i
        ? button(b.label, b.href)
        : link(b.label, b.href)
      : `<ol style="margin:0 0 14px;padding-left:22px">${b.list.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ol>`;

function layout(subject: string, shopTitle: string, body: string, cover?: MailCover): string {
  const stripe = cover ? `border-top:8px solid ${escapeHtml(cover.colour)};` : "";
  const coverLine = cover
    ? `<p style="margin:6px 0 0;${FONT}font-size:13px;letter-spacing:0.12em;text-transform:uppercase;color:${ACID}">${escapeHtml(
        cover.codename ? `${cover.codename} · ${cover.code}` : cover.code,
      )}</p>`
    : "";
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="color-scheme" content="light"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:0;background:#ece8f2">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#ece8f2"><tr><td align="center" style="padding:16px 8px">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;overflow:hidden;${stripe}">` +
    `<tr><td style="background:${INK};padding:20px 24px">` +
    `<h1 style="margin:0;${FONT}font-size:20px;line-height:1.3;color:#f4ecd8">${escapeHtml(shopTitle)}</h1>${coverLine}</td></tr>` +
    `<tr><td style="padding:24px;${FONT}font-size:16px;line-height:1.5;color:${TEXT}">${body}</td></tr>` +
    `<tr><td style="padding:0 24px 20px;${FONT}font-size:12px;color:${MUTED}">${escapeHtml(shopTitle)}</td></tr>` +
    `</table></td></tr></table></body></html>`
  );
}

/** The text twin says what the HTML says, link by link. */
export function composeMail(to: string, subject: string, shopTitle: string, blocks: MailBlock[], cover?: MailCover): Mail {
  const text = blocks
    .map((b) =>
      typeof b === "string"
        ? b
        : "href" in b
          ? `${b.label}:\n${b.href}`
          : b.list.map((item, i) => `${i + 1}. ${item}`).join("\n"),
    )
    .join("\n\n");
  return {
    to,
    subject,
    text: `${shopTitle}\n\n${text}\n`,
    html: layout(subject, shopTitle, blocks.map(htmlBlock).join(""), cover),
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
