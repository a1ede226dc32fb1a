// The review dialog's words (`/review`), which the order pages and emails share (see copy.ts).

import { ORDER_WORDS, PRICE_WORDS } from "./copy";

export const REVIEW_COPY = {
  title: "Review Order",
  close: "Close",
  design: "Design",
  none: "None",
  noDesign: "No Design",
  summary: "Order Summary",
  tracks: "Tracks",
  options: "Options",
  note: "Special Note",
  total: "Total",
  totalValue: PRICE_WORDS.total,
  delivery: "Delivery",
  deliveryValue: "3–5 days",
  generateCode: "Generate Order Code",
  regenerateCode: "Regenerate Order Code",
  transmit: "Transmit Order",
  transmitting: "Transmitting...",
  payNow: ORDER_WORDS.payNow,
  orderCode: ORDER_WORDS.orderCode,
  codeRequired: "Generate an order code first.",
  codeFormat: "The order code must be 8 characters from A–Z and 0–9.",
  codeStale: "This order code is out of date. Generate a new one and try again.",
  emptyDeck: "Add at least one track before transmitting.",
  codeTaken: "This order code is already in use. Generate a new one.",
  codeUsed:
    "This order code was already used for a different mixtape. Your mixtape is kept with a new code: review it and transmit again.",
  payLater: "after you transmit",
  noDesignChosen: "No cover design chosen.",
  chooseCover: "Choose a cover",
} as const;
