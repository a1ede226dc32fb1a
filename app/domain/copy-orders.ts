// The order pages' words (shopper and mixer): only those pages' bundles carry them.

export const ORDER_PAGE_COPY = {
  title: (code: string) => `Order ${code}`,
  backToOrders: "Back to My Mixtapes",
  tracks: "Tracks",
  details: "Details",
  newReply: "New reply",
} as const;

export const CONVERSATION_COPY = {
  timeline: "Timeline",
  events: {
    placed: "Order placed",
    mixing: "Mixing started",
    paid: "Paid",
    sent: "Sent",
    cancelled: "Cancelled",
    refunded: "Refunded",
    disputed: "Disputed",
  },
  you: "You",
  sendMessage: "Send a message",
  message: "Message",
  send: "Send",
  sending: "Sending...",
  hintToMixer: (name: string) => `${name} gets your message by email.`,
  hintToShopper: "The shopper gets your message by email.",
  closed: "This conversation is closed.",
  empty: "Write a message first.",
  tooLong: (max: number) => `The message is limited to ${max.toLocaleString("en-US")} characters.`,
  controlCharacters:
    "The message contains characters that cannot be stored (control characters other than new lines). Please retype it.",
  notSent: "The message was not sent. Check your connection and try again.",
  sent: "Message sent",
  tooMany: "You can send 10 messages about an order in 10 minutes. Please wait a few minutes and try again.",
} as const;
