// Every HTML email: one responsive layout (a viewport, real buttons, the order's cover), its text
// twin saying the same; "Your tape is ready" names the tape and how long it stays.
import { describe, expect, it } from "vitest";
import { ORDER_EMAIL_KINDS } from "~/domain/email-subjects";
import { readQueuedEmail } from "~/server/backend/port.server";
import type { Config } from "~/server/platform/config.server";
import {
  accountDeletedMail,
  alreadyRegisteredMail,
  confirmationMail,
  emailChangeMail,
  emailChangeNoticeMail,
  recoveryMail,
  type Mail,
} from "~/server/platform/mailer.server";
import { orderEmail } from "~/server/services/order-emails.server";

const config = {
  SHOP_TITLE: "Underground Mixtape Shop",
  MIXER_NAME: "DJ Aika",
  CHECKOUT_URL: "https://pay.example/checkout",
  DROP_KEEP_DAYS: 90,
  PRICE_NOTE: "from $10",
  siteUrl: "https://shop.example",
} as Config;

const tape = {
  ext: "mp3",
  contentType: "audio/mpeg",
  size: 86_214_000,
  durationSeconds: 2530,
  uploadedAt: "2026-11-27T14:06:00Z",
};
const orderRow = {
  id: 5,
  code: "AB12CD34",
  tracks: [{ id: "1", title: "Neon Skyline", thumbnail: "/t/1.svg", previewUrl: "/p/1.mp3" }],
  user_id: "u",
  codename: "NEON TIGER",
  design_id: "ice-cold",
  status: "sent",
  sent_at: "2026-11-28T10:00:00Z",
  tape,
};
const email = (kind: string, order: Record<string, unknown> = orderRow) =>
  orderEmail(
    readQueuedEmail({
      id: 1,
      kind,
      recipient: "sam@example.com",
      attempts: 1,
      order_row: order,
      username: "rebel_sam",
      entry: { amount: 1500, currency: "usd" },
      messages: [{ id: 9, from_mixer: true, body: "Done!", created_at: "2026-11-23T10:00:00Z" }],
    }),
    config,
  );

const authMails: Mail[] = [
  confirmationMail("a@example.com", "Underground Mixtape Shop", "https://shop.example/auth/confirm?t=1&x=2"),
  alreadyRegisteredMail("a@example.com", "Underground Mixtape Shop", "https://shop.example/auth"),
  recoveryMail("a@example.com", "Underground Mixtape Shop", "https://shop.example/auth/reset?t=1"),
  emailChangeMail("a@example.com", "Underground Mixtape Shop", "https://shop.example/account/email?t=1"),
  emailChangeNoticeMail("a@example.com", "Underground Mixtape Shop", "new@example.com"),
  accountDeletedMail("a@example.com", "Underground Mixtape Shop"),
];
const orderMails = ORDER_EMAIL_KINDS.map((kind) => email(kind));

/** The HTML's words and links, as a reader sees them. */
const words = (html: string) =>
  html
    .replace(/<title>.*?<\/title>/, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");
const hrefs = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, "&"));

describe("one layout for every HTML email", () => {
  it.each([...authMails, ...orderMails].map((m) => [m.subject, m] as const))("%s", (_subject, mail) => {
    expect(mail.html).toMatch(/^<!doctype html><html lang="en">/);
    expect(mail.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(mail.html).toContain(`<title>${mail.subject}</title>`);
    expect(mail.html).toMatch(/<h1[^>]*>Underground Mixtape Shop<\/h1>/);
    // The first link is a button (a padded block in a table cell of its own); any after it a plain link.
    const [first, ...rest] = [...mail.html.matchAll(/<a [^>]*>/g)].map((m) => m[0]);
    if (first) expect(first).toMatch(/style="display:inline-block;padding:12px 20px;/);
    for (const link of rest) expect(link).not.toContain("display:inline-block");
    // The text twin carries every line and every link of the HTML, and nothing else.
    for (const href of hrefs(mail.html)) expect(mail.text).toContain(href);
    const html = words(mail.html);
    for (const line of mail.text.split("\n").filter((l) => l && !l.startsWith("http"))) {
      expect(html).toContain(line.replace(/:$/, "").replace(/^\d+\. /, ""));
    }
  });

  it("an order's email wears its cover: codename, code and the design's colour", () => {
    for (const mail of orderMails) {
      expect(mail.html).toContain("NEON TIGER · AB12CD34");
      expect(mail.html).toContain("border-top:8px solid #9fd8ff");
    }
    const plain = email("paid", { ...orderRow, codename: null, design_id: null });
    expect(plain.html).toContain(">AB12CD34</p>");
    expect(plain.html).toContain("border-top:8px solid #b9b2c7");
  });
});

describe("Your tape is ready", () => {
  it("names the tape, its length and size, how long it stays, and plays it from a button", () => {
    const mail = email("sent");
    expect(mail.subject).toBe("Your tape is ready: AB12CD34");
    expect(mail.text).toContain("NEON TIGER · 42:10 · 86.2 MB");
    expect(mail.text).toContain("Play it or download it on your order page for 90 days after it was sent, until Feb 26, 2027.");
    expect(mail.text).toContain("Play your tape:\nhttps://shop.example/my-mixtapes/AB12CD34#tape");
    expect(mail.html).toMatch(/<a href="https:\/\/shop\.example\/my-mixtapes\/AB12CD34#tape"[^>]*>Play your tape<\/a>/);
  });

  it("says nothing of a tape whose file is gone, and still links to the order", () => {
    const mail = email("sent", { ...orderRow, tape: { ...tape, deletedAt: "2027-02-27T00:00:00Z" } });
    expect(mail.text).not.toContain("Play your tape");
    expect(mail.text).toContain("Your order:\nhttps://shop.example/my-mixtapes/AB12CD34");
  });
});

describe("the refund email", () => {
  const money = {
    lines: [{ currency: "USD", test: false, payments: 1, paid: 1500, refunded: 500, disputed: 0, flagged: 0, net: 1000, due: 0 }],
    movements: [],
  };
  const refund = (entry: Record<string, unknown>) =>
    orderEmail(
      readQueuedEmail({
        id: 2,
        kind: "refunded",
        recipient: "sam@example.com",
        attempts: 1,
        order_row: { ...orderRow, money },
        entry,
      }),
      config,
    ).text;
  it("names the refund against what was paid", () => {
    expect(refund({ amount: 500, currency: "usd" })).toContain(
      "A refund of $5.00 of the $15.00 you paid was made on order AB12CD34.",
    );
    expect(refund({ amount: 700, currency: "usd", running_total: true })).toContain(
      "A refund was made on order AB12CD34: $7.00 refunded in all so far of the $15.00 you paid.",
    );
  });
  it("says only the refund when nothing was paid in its currency", () => {
    expect(refund({ amount: 500, currency: "eur" })).toContain("A refund of €5.00 was made on order AB12CD34.");
  });
});
