// An order's statuses: received → mixing → sent, and cancelled from received or mixing.
// On its own, so the words (copy.ts) name a status without importing the order rules.

export const ORDER_STATUSES = ["received", "mixing", "sent", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const nextStatus = (status: OrderStatus): OrderStatus | null =>
  status === "received" ? "mixing" : status === "mixing" ? "sent" : null;

export const isOpen = (order: { status: OrderStatus }) => order.status === "received" || order.status === "mixing";
