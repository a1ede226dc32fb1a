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

/** The drop: the tape on the order pages (the shopper's panel, the mixer's card). */
export const DROP_COPY = {
  yourTape: "Your tape",
  tape: "Tape",
  download: "Download",
  duration: "Length",
  size: "Size",
  file: "File",
  uploadLabel: "Upload the tape",
  uploadHint: (maxMb: number) => `MP3, M4A, OGG, FLAC or WAV, up to ${maxMb} MB.`,
  upload: "Upload",
  uploading: "Uploading...",
  sendDrop: "Send the drop",
  sending: "Sending...",
  downloads: (n: number) => (n === 0 ? "Not downloaded yet" : `Downloaded ${n} ${n === 1 ? "time" : "times"}`),
  lastDownload: (when: string) => `last ${when}`,
  uploaded: (duration: string, size: string) => `Tape uploaded: ${duration}, ${size}.`,
  tooLarge: (limitBytes: number) => `The file is larger than ${Math.floor(limitBytes / (1024 * 1024))} MB.`,
  alreadyDownloaded: "The shopper has downloaded this tape already: it stays as it is.",
  closed: "This order is sent or cancelled: its tape can no longer change.",
  notSaved: "The tape could not be saved. Please try again.",
  storeDown: "The tape store is not answering. Please try again in a moment.",
  noFile: "Choose the tape's file first.",
  deleted: (days: number) => `This tape was kept for ${days} days after it was sent, and has been deleted.`,
  askAgain: "Send a message",
  askAgainText: "to ask for it again.",
  noTapeYet: "No tape uploaded yet.",
  fileDeleted: "its file was deleted (kept its days, or the account was erased)",
  replaceHint: "A new upload replaces this tape until the shopper downloads it.",
} as const;
