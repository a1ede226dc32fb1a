// The file mailer (no SMTP_URL): a reader of the outbox never sees half a mail.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createMailer } from "~/server/platform/mailer.server";
import { outboxMails } from "../support/outbox";

describe("the outbox", () => {
  let dir = "";
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("holds only whole mails while they are written, and nothing else once they are", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mixtape-outbox-"));
    const mailer = createMailer({ from: "Mixtape <no-reply@mixtape.local>", dataDir: dir, log: () => {} });
    const text = "x".repeat(200_000); // a large mail takes more than one write
    let reads = 0;
    let sending = true;
    // Reads the outbox between every turn of the event loop while the mails go out.
    const reader = (async () => {
      while (sending) {
        for (const mail of outboxMails(dir)) expect(mail.text).toBe(text);
        reads++;
        await new Promise((r) => setImmediate(r));
      }
    })();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => mailer.send({ to: `r${i}@example.com`, subject: "s", text, html: "<p>h</p>" })),
    );
    sending = false;
    await reader;
    expect(reads).toBeGreaterThan(1);
    expect(outboxMails(dir)).toHaveLength(20);
    expect(fs.readdirSync(path.join(dir, "outbox")).every((f) => f.endsWith(".json"))).toBe(true);
  });
});
