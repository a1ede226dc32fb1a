// The file mailer's outbox (DATA_DIR/outbox, app/server/platform/mailer.server.ts): one
// JSON file per mail, named by the time it was sent. The one reader for every test layer.
import fs from "node:fs";
import path from "node:path";

export type Mail = { to: string; subject: string; text: string; html: string };

/** Every mail in the outbox, newest first (a mail still being written is not there yet). */
export function outboxMails(dataDir: string): Mail[] {
  const outbox = path.join(dataDir, "outbox");
  const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith(".json")) : [];
  return files
    .sort()
    .reverse()
    .map((f) => JSON.parse(fs.readFileSync(path.join(outbox, f), "utf8")) as Mail);
}

/** The newest mail to this address that matches, waiting up to 10 s for it. */
export async function waitForMail(dataDir: string, to: string, matches: (mail: Mail) => boolean = () => true): Promise<Mail> {
  for (let i = 0; i < 100; i++) {
    const mail = outboxMails(dataDir).find((m) => m.to === to && matches(m));
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to} in ${path.join(dataDir, "outbox")}`);
}

const CONFIRM_LINK = /https?:\/\/\S+\/auth\/confirm\S*/;

/** The newest sign-up confirmation link mailed to this address. */
export async function confirmationLink(dataDir: string, to: string): Promise<URL> {
  const mail = await waitForMail(dataDir, to, (m) => CONFIRM_LINK.test(m.text));
  return new URL(CONFIRM_LINK.exec(mail.text)![0]);
}
