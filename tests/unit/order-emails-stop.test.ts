// At shutdown the order emails worker finishes the send in progress and sends nothing more;
// the rest of its claimed batch goes back to the queue at once (retried by the next process).
import "../support/env";
import { describe, expect, it } from "vitest";
import type { Backend, QueuedEmail } from "~/server/backend/port.server";
import type { Mailer } from "~/server/platform/mailer.server";
import { startOrderEmails } from "~/server/services/order-emails.server";

const order = {
  id: 1,
  code: "ABCD1234",
  tracks: [],
  toggles: {},
  note: "",
  design_id: "d1",
  created_at: new Date().toISOString(),
};
const email = (id: number): QueuedEmail => ({
  id: String(id),
  kind: "received",
  recipient: `shopper${id}@example.com`,
  attempts: 1,
  order,
  shopper: { username: "s", email: `shopper${id}@example.com` },
  messages: [],
  entry: null,
  closesBudget: false,
});

describe("order emails worker: stop", () => {
  it("lets the current send finish, sends nothing more, and gives the rest of the batch back", async () => {
    const finished: [string, string | null][] = [];
    let claims = 0;
    let release = () => {};
    const sent: string[] = [];
    const backend = {
      authEmails: null,
      emails: {
        claim: async () => (claims++ === 0 ? [email(1), email(2), email(3)] : []),
        finish: async (id: string, error: string | null) => void finished.push([id, error]),
      },
    } as unknown as Backend;
    const mailer: Mailer = {
      send: (mail) =>
        new Promise<void>((resolve) => {
          sent.push(mail.to);
          release = resolve;
        }),
    } as Mailer;

    const worker = startOrderEmails(backend, mailer);
    await expect.poll(() => sent.length).toBe(1);
    const stopped = worker.stop();
    release(); // the send in progress completes
    await stopped;

    expect(sent).toEqual(["shopper1@example.com"]);
    expect(finished[0]).toEqual(["1", null]);
    expect(finished.slice(1).map(([id]) => id)).toEqual(["2", "3"]);
    for (const [, error] of finished.slice(1)) expect(error).toMatch(/server stopped/);
    expect(claims).toBe(1);
    worker.nudge();
    expect(claims).toBe(1);
  });
});
