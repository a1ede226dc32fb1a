// The pure rules of the shopper's own account: the data export's shape, the order emails' subjects, the
// delete and email-change forms, and how a deleted account's orders read.
import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { buildAccountExport, exportFileName } from "~/domain/account-export";
import { OWN_ACCOUNT_COPY } from "~/domain/copy-auth";
import { displayName, shopperName } from "~/domain/display-name";
import { ORDER_EMAIL_KINDS, orderEmailSubject } from "~/domain/email-subjects";
import { readOrderRow } from "~/domain/orders";
import { changeEmailSchema, deleteAccountSchema } from "~/domain/schemas";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};

describe("Download my data", () => {
  const order = {
    id: 7,
    user_id: "u-1",
    code: "ABCD1234",
    tracks: [{ id: "3", title: "Song three", thumbnail: "/t/3.svg", previewUrl: "/p/3.mp3" }],
    toggles: { Aikavoice: true, djIntro: false, retronoise: true },
    note: "Loud",
    design_id: "ice-cold",
    design_name: "ice cold",
    design_image: "/art/designs/ice-cold.svg",
    codename: "NEON SIGNAL",
    created_at: "2026-11-01T10:00:00Z",
    status: "cancelled",
    tape: {
      // As the shopper's read gives it (public.order_tape): the extension, never the key nor the mixer's file name.
      ext: "flac",
      fileName: null,
      contentType: "audio/flac",
      size: 4_200_000,
      durationSeconds: 1812.5,
      uploadedAt: "2026-11-01T12:00:00Z",
      downloads: 1,
    },
    money: {
      lines: [{ currency: "USD", payments: 1, paid: 1200, refunded: 200, refundedAll: false, disputed: 0, net: 1000, due: 1000 }],
      movements: [
        {
          kind: "payment",
          provider: "stripe",
          amount: 1200,
          currency: "USD",
          at: "2026-11-01T10:05:00Z",
          status: null,
          reason: null,
        },
        {
          kind: "refund",
          provider: "manual",
          amount: 200,
          currency: "USD",
          at: "2026-11-02T11:00:00Z",
          status: null,
          reason: null,
        },
      ],
    },
    cancelled_at: "2026-11-02T10:00:00Z",
    cancelled_by: "u-1",
    mixing_by: "mixer-id",
    encrypted_password: "scrypt$secret",
  };
  const doc = buildAccountExport(
    {
      email: "me@example.com",
      profile: { username: "me", created_at: "2026-10-01T00:00:00Z" },
      orders: [order],
      messages: [
        { id: 1, order_id: 7, from_mixer: false, body: "Hi", created_at: "2026-11-01T11:00:00Z" },
        { id: 2, order_id: 8, from_mixer: true, body: "Not this order", created_at: "2026-11-01T11:00:00Z" },
      ],
      emails: [
        { kind: "received", code: "ABCD1234", created_at: "2026-11-01T10:00:01Z", sent_at: "2026-11-01T10:00:03Z" },
        { kind: "bogus", code: "ABCD1234", created_at: "2026-11-01T10:00:01Z", sent_at: null },
      ],
    },
    "DJ Kai",
    new Date("2026-12-01T00:00:00Z"),
  );

  it("holds the profile, the order whole, its own messages and the emails by subject", () => {
    expect(doc.profile).toEqual({ username: "me", email: "me@example.com", createdAt: "2026-10-01T00:00:00.000Z" });
    expect(doc.orders).toEqual([
      {
        code: "ABCD1234",
        placedAt: "2026-11-01T10:00:00.000Z",
        status: "cancelled",
        codename: "NEON SIGNAL",
        design: { id: "ice-cold", name: "ice cold" },
        tracks: [{ position: 1, id: "3", title: "Song three" }],
        options: ["Add DJ Kai voice", "Add cassette noise"],
        note: "Loud",
        history: {
          placedAt: "2026-11-01T10:00:00.000Z",
          mixingAt: null,
          sentAt: null,
          cancelledAt: "2026-11-02T10:00:00.000Z",
          cancelledBy: "you",
          cancelReason: null,
        },
        payment: {
          paid: true,
          totals: [
            { currency: "USD", paid: "$12.00", refunded: "$2.00", net: "$10.00", netMinorUnits: 1000, refundDue: "$10.00" },
          ],
          movements: [
            {
              kind: "payment",
              via: "stripe",
              amount: "$12.00",
              amountMinorUnits: 1200,
              currency: "USD",
              at: "2026-11-01T10:05:00.000Z",
            },
            {
              kind: "refund",
              via: "manual",
              amount: "$2.00",
              amountMinorUnits: 200,
              currency: "USD",
              at: "2026-11-02T11:00:00.000Z",
            },
          ],
        },
        delivery: { link: null, message: null },
        tape: {
          name: "NEON SIGNAL - ABCD1234.flac",
          sizeBytes: 4_200_000,
          durationSeconds: 1812.5,
          uploadedAt: "2026-11-01T12:00:00.000Z",
          deletedAt: null,
        },
        messages: [{ from: "you", body: "Hi", sentAt: "2026-11-01T11:00:00.000Z" }],
      },
    ]);
    expect(doc.emails).toEqual([
      {
        subject: "Your order ABCD1234 is in",
        order: "ABCD1234",
        queuedAt: "2026-11-01T10:00:01.000Z",
        sentAt: "2026-11-01T10:00:03.000Z",
      },
    ]);
  });

  it("never carries another person's id or a column it does not name", () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain("mixer-id");
    expect(text).not.toContain("u-1");
    expect(text).not.toContain("scrypt");
    // The tape's facts only: never a link to it.
    expect(text).not.toContain("/tape");
  });

  it("is named after the username", () => {
    expect(exportFileName("dj_me", "0a1b2c3d-0000")).toBe("mixtape-data-dj_me.json");
    expect(exportFileName(null, "0a1b2c3d-0000")).toBe("mixtape-data-account-0a1b2c3d.json");
  });
});

describe("order email subjects: one wording for the email and the export", () => {
  it.each(ORDER_EMAIL_KINDS)("%s names the order", (kind) => {
    expect(orderEmailSubject(kind, "ABCD1234")).toContain("ABCD1234");
  });
  it("says what each email is", () => {
    expect(orderEmailSubject("new_order", "X")).toBe("New order X");
    expect(orderEmailSubject("paid", "X")).toBe("Payment received for X");
    expect(orderEmailSubject("cancelled", "X")).toBe("Order X cancelled");
  });
});

describe("the account forms", () => {
  it("delete needs the password and the typed word DELETE, exactly", () => {
    expect(parseWithZod(form({ currentPassword: "pw", confirm: "DELETE" }), { schema: deleteAccountSchema }).status).toBe(
      "success",
    );
    expect(parseWithZod(form({ currentPassword: "pw", confirm: " DELETE " }), { schema: deleteAccountSchema }).status).toBe(
      "success",
    );
    for (const confirm of ["delete", "DELETED", ""]) {
      const result = parseWithZod(form({ currentPassword: "pw", confirm }), { schema: deleteAccountSchema });
      expect(result.status).toBe("error");
      expect(result.reply().error?.confirm).toEqual([OWN_ACCOUNT_COPY.typeDeleteError]);
    }
    expect(parseWithZod(form({ confirm: "DELETE" }), { schema: deleteAccountSchema }).status).toBe("error");
  });
  it("change email needs a valid address and the password", () => {
    expect(parseWithZod(form({ newEmail: "new@example.com", currentPassword: "pw" }), { schema: changeEmailSchema }).status).toBe(
      "success",
    );
    expect(parseWithZod(form({ newEmail: "not-an-email", currentPassword: "pw" }), { schema: changeEmailSchema }).status).toBe(
      "error",
    );
  });
  it("sign out everywhere else says how many", () => {
    expect(OWN_ACCOUNT_COPY.otherSessionsEnded(2)).toBe("2 other sessions signed out.");
    expect(OWN_ACCOUNT_COPY.otherSessionsEnded(1)).toBe("1 other session signed out.");
    expect(OWN_ACCOUNT_COPY.otherSessionsEnded(null)).toBe("Other sessions signed out.");
  });
});

describe("a deleted account's orders", () => {
  it('show "Deleted account" as their shopper', () => {
    expect(displayName({ state: "deleted" })).toBe("Deleted account");
    expect(shopperName({ user_id: null }, { username: null, email: null })).toBe("Deleted account");
    expect(shopperName({ user_id: "u" }, { username: "dj", email: null })).toBe("dj");
  });
  it("read a cancel whose shopper left as the shopper's, and a mixer's as the mixer's", () => {
    const base = { id: 1, code: "ABCD1234", cancelled_at: "2026-11-02T10:00:00Z", user_id: null };
    expect(readOrderRow({ ...base, cancelled_by: null })?.cancelled_by_shopper).toBe(true);
    expect(readOrderRow({ ...base, cancelled_by: "mixer" })?.cancelled_by_shopper).toBe(false);
  });
});
