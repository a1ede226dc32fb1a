// The work that forgot password and resend confirmation hand over: it starts only once
// the response has gone out, never changes the answer, and a failure is logged.
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { requestContext, type RequestInfo } from "~/server/context.server";
import { afterAnswer, settleAfterAnswer } from "~/server/platform/after-answer.server";

function contextWith(afterResponse?: RequestInfo["afterResponse"]) {
  const errors: unknown[][] = [];
  const context = new RouterContextProvider();
  context.set(requestContext, {
    nonce: "",
    clientIp: "127.0.0.1",
    requestId: "test",
    log: { error: (...args: unknown[]) => errors.push(args) } as unknown as RequestInfo["log"],
    afterResponse,
  });
  return { context, errors };
}

describe("afterAnswer", () => {
  it("starts the work only when the response has gone out", async () => {
    const sent: (() => void)[] = [];
    const { context } = contextWith((task) => sent.push(task));
    let started = false;
    afterAnswer(context, "test work", async () => {
      started = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(started).toBe(false);
    expect(sent).toHaveLength(1);
    sent[0]();
    await settleAfterAnswer();
    expect(started).toBe(true);
  });

  it("logs a failure (an error, or the outage page's data) and throws nothing", async () => {
    const { context, errors } = contextWith();
    afterAnswer(context, "failing work", () => Promise.reject(new Error("SMTP refused")));
    afterAnswer(context, "outage work", () => Promise.reject({ data: { message: "The mixtape service is unavailable" } }));
    await new Promise((r) => setImmediate(r));
    await settleAfterAnswer();
    expect(errors.map(([fields, message]) => [(fields as { err: string }).err, message])).toEqual([
      ["SMTP refused", "failing work failed"],
      ["The mixtape service is unavailable", "outage work failed"],
    ]);
  });
});
