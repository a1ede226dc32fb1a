import type { Route } from "./+types/webhooks";
import { rootOf } from "~/server/root.server";
import { receiveWebhook } from "~/server/services/payments.server";

/** POST /webhooks/stripe, /webhooks/lemonsqueezy, /webhooks/checkout (each on while its secret is set). */
export const action = ({ request, params, context }: Route.ActionArgs) =>
  receiveWebhook(rootOf(context).backend, params.provider, request);
