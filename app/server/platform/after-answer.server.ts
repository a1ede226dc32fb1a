// Work that must neither delay nor shape the answer. Forgot password and resend
// confirmation send an email only when the address (or username) has an account: done
// before answering, the answer's time would tell whether it has one. The route answers
// first and hands the work here; it starts once the response has gone out
// (RequestInfo.afterResponse, set by server/app.ts), and a failure is logged, never shown.
import type { RouterContextProvider } from "react-router";
import { requestContext } from "../context.server";

const running = new Set<Promise<void>>();

/** What a failure was, for the log line (an outage reaches us as the 503 page's data). */
function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  const data = (error as { data?: { message?: unknown } } | null)?.data;
  return typeof data?.message === "string" ? data.message : String(error);
}

/** Runs work after this request's answer has been sent; logs `${label} failed` when it throws. */
export function afterAnswer(context: Readonly<RouterContextProvider>, label: string, work: () => Promise<void>): void {
  const info = context.get(requestContext);
  const start = () => {
    const task: Promise<void> = work()
      .catch((error: unknown) => info.log.error({ err: describe(error), requestId: info.requestId }, `${label} failed`))
      .finally(() => running.delete(task));
    running.add(task);
  };
  if (info.afterResponse) info.afterResponse(start);
  else setImmediate(start);
}

/** Resolves when every task started so far has finished (tests, shutdown). */
export async function settleAfterAnswer(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}
