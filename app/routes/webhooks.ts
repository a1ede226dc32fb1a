import type { Route } from "./+types/webhooks";
import { receiveWebhook } from "~/server/services/payments.server";

/** POST /webhooks/stripe, /webhooks/lemonsqueezy, /webhooks/checkout (each on while its secret is set). */
export const action = ({ request, params }: Route.ActionArgs) => receiveWebhook(params.provider, request);
