// Done before answering, the answer's time would tell whether an address has an account.
import type { RouterContextProvider } from "react-router";
import { requestContext } from "../context.server";

const running = new Set<Promise<void>>();

/** An outage reaches us as the 503 page's data. */
function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  const data = (error as { data?: { message?: unknown } } | null)?.data;
  return typeof data?.message === "string" ? data.message : String(error);
}

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

export async function settleAfterAnswer(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}
