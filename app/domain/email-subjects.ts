// The email and "Download my data" must say the same words.

export const ORDER_EMAIL_KINDS = ["received", "new_order", "sent", "paid", "refunded", "cancelled", "message"] as const;
export type OrderEmailKind = (typeof ORDER_EMAIL_KINDS)[number];

export function orderEmailSubject(kind: OrderEmailKind, code: string): string {
  switch (kind) {
    case "new_order":
      return `New order ${code}`;
    case "sent":
      return `Your tape is ready: ${code}`;
    case "paid":
      return `Payment received for ${code}`;
    case "refunded":
      return `Refund for ${code}`;
    case "cancelled":
      return `Order ${code} cancelled`;
    case "message":
      return `Message about ${code}`;
    case "received":
      return `Your order ${code} is in`;
  }
}
