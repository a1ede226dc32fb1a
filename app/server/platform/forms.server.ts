import type { SubmissionResult } from "@conform-to/react";
import { data, type RouterContextProvider } from "react-router";
import { COPY } from "~/domain/copy";
import { humanWait } from "~/domain/time";
import { toast, type ToastInput } from "./toast.server";

type Submission = { reply(options?: { formErrors?: string[]; hideFields?: string[] }): SubmissionResult<string[]> };

/** The route's `headers`: without JavaScript the action's Retry-After reaches the page response. */
export function retryAfterHeaders({ actionHeaders }: { actionHeaders: Headers }) {
  const headers = new Headers();
  const retry = actionHeaders.get("Retry-After");
  if (retry) headers.set("Retry-After", retry);
  return headers;
}

export type Refusal = { message: string; status?: number; retryAfter?: number };

/** The refusal of a rate limit: the real wait, in words and in Retry-After. */
export const tooMany = (wait: number): Refusal => ({
  message: COPY.errors.tooManyRequests(humanWait(wait)),
  status: 429,
  retryAfter: wait,
});

const retryHeaders = (retryAfter?: number) => (retryAfter === undefined ? undefined : { "Retry-After": String(retryAfter) });

/** A form refused inline: its fields' own errors (message omitted), or one message for the whole form; `extra` rides along. */
export function refuseForm<E extends object = object>(
  submission: Submission,
  refusal: Refusal | null,
  { hideFields, extra }: { hideFields?: string[]; extra?: E } = {},
) {
  const result = submission.reply({ hideFields, ...(refusal ? { formErrors: [refusal.message] } : {}) });
  return data({ result, ...(extra as E) }, { status: refusal?.status ?? 400, headers: retryHeaders(refusal?.retryAfter) });
}

/** A change refused with an error toast; `body` is what a fetcher reads back. */
export function refuseWithToast<T = { ok: false }>(
  context: Readonly<RouterContextProvider>,
  status: number,
  input: ToastInput,
  body: T = { ok: false } as T,
) {
  return toast(context).data(body, { type: "error", ...input }, { status });
}
