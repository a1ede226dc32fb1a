// The order pages' words (shopper and mixer): only those pages' bundles carry them.

import { ORDER_WORDS } from "./copy";
import type { OrderStatus } from "./order-status";

const statusName = (status: OrderStatus) => `${status[0].toUpperCase()}${status.slice(1)}`;

/** My Mixtapes and an order's page. */
export const ORDERS_COPY = {
  title: "My Mixtapes",
  status: (status: OrderStatus) => `Status: ${statusName(status)}`,
  paid: ORDER_WORDS.paid,
  paidAmount: (money: string) => `Paid ${money}`,
  refundPending: (money: string) => `Refund pending ${money}`,
  /** A refund of an amount nobody recorded (marked by hand before amounts were kept). */
  refunded: "Refunded",
  refundedAmount: (money: string) => `Refunded ${money}`,
  refundedOf: (part: string, whole: string) => `Refunded ${part} of ${whole}`,
  /** Money of a checkout's test mode: no money moved. */
  testPaid: (money: string) => `Test payment ${money}`,
  paymentRecorded: (money: string, code: string) => `Payment of ${money} recorded for ${code}`,
  refundRecorded: (money: string, code: string) => `Refund of ${money} recorded for ${code}`,
  expectedBy: (date: string) => `Expected by ${date}`,
  /** My Mixtapes' cue on a sent order whose tape waits on its page. */
  tapeReady: "Your tape is ready: play or download it",
  tapeThere: "Your tape: play or download it again",
  openOrder: "Open order",
  cancelledBy: (who: string) => `Cancelled by ${who}`,
  cancelledByYou: "you",
  cancelRefund: (amount: string) => `Your payment of ${amount} will be refunded.`,
  cancelRefundUnknown: "Your payment will be refunded.",
  cancelOrder: "Cancel Order",
  cancelQuestion: (code: string) => `Cancel order ${code}?`,
  cancelYes: "Yes, cancel it",
  cancelKeep: "Keep it",
  cancelling: "Cancelling...",
  nowStatus: (code: string, status: OrderStatus) => `Order ${code} is now ${statusName(status)}`,
  payNow: ORDER_WORDS.payNow,
  listen: "Listen to your tape",
  fromMixer: (name: string) => `From ${name}`,
  backHome: "Back to Home",
  empty: "No mixtape orders found. Go make your first order!",
  placed: "Placed",
  songs: "Songs",
  note: "Special Note",
  none: "None",
  options: "Options",
  pages: "Order pages",
  newer: "Newer orders",
  older: "Older orders",
} as const;

/** The shopper's words for an order's money (domain/money.ts moneyBadges). */
export const SHOPPER_MONEY_WORDS = {
  paid: ORDERS_COPY.paid,
  paidAmount: ORDERS_COPY.paidAmount,
  refunded: ORDERS_COPY.refunded,
  refundedAmount: ORDERS_COPY.refundedAmount,
  refundedOf: ORDERS_COPY.refundedOf,
  due: ORDERS_COPY.refundPending,
  test: ORDERS_COPY.testPaid,
};

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
  /** Beside a movement of money on the timeline (a refund to check is the mixer's to see). */
  movement: { test: "test money", extra: "extra payment", flagged: "to check" },
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
  /** Before the last download's time: "Downloaded 2 times, last 26 Nov 2026, 14:05 UTC". */
  lastDownload: "last",
  uploaded: (duration: string, size: string) => `Tape uploaded: ${duration}, ${size}.`,
  tooLarge: (limitBytes: number) => `The file is larger than ${Math.floor(limitBytes / (1024 * 1024))} MB.`,
  closed: "This order was sent and its conversation is closed: its tape can no longer change.",
  cancelledOrder: "This order is cancelled: its tape can no longer change.",
  /** The Tape card once the shopper has the tape: why the upload is a new version now, and what to do. */
  downloadedOn: "Downloaded",
  lockedDownloaded: "so it can no longer be replaced.",
  lockedSent: "Sent to the shopper, so it can no longer be replaced.",
  lockedWayForward: "To fix something, send the shopper a message, or upload a corrected version: they get a message about it.",
  sendMessage: "Send a message",
  newVersionLabel: "Upload a corrected version",
  uploadNewVersion: "Upload new version",
  version: (n: number) => `Version ${n}`,
  newVersionUploaded: (duration: string, size: string) =>
    `New version uploaded: ${duration}, ${size}. The shopper got a message about it.`,
  /** The mixer's message to the shopper, posted with the new version (its email goes as any message's). */
  newVersionNotice: (duration: string, size: string) =>
    `I uploaded a corrected version of your tape (${duration}, ${size}). It replaces the one you have: play or download it again on your order's page.`,
  notSaved: "The tape could not be saved. Please try again.",
  storeDown: "The tape store is not answering. Please try again in a moment.",
  noFile: "Choose the tape's file first.",
  cutOff: "The upload stopped before the whole file arrived. Please try again.",
  unreadable: "The upload could not be read. Please choose the file and try again.",
  beyondLength: "The upload sent more bytes than its file's length.",
  deleted: (days: number) => `This tape was kept for ${days} days after it was sent, and has been deleted.`,
  askAgain: "Send a message",
  askAgainText: "to ask for it again.",
  noTapeYet: "No tape uploaded yet.",
  fileDeleted: "its file was deleted (kept its days, or the account was erased)",
  replaceHint: "A new upload replaces this draft.",
  draft: "A draft: the shopper gets it when you send the drop.",
  uploadsForMixers: "Sign in as the shop's mixer to upload a tape.",
  noOrder: "There is no such order.",
  lengthRequired: "The upload must say its length.",
  finishing: "The tape is being checked. Ask again in a moment.",
  cancel: "Cancel",
  cancelled: "Upload cancelled.",
  progressLabel: "Upload progress",
  /** "Your tape is ready": the tape's facts, how long it stays, and the button to its panel. */
  mailFacts: (name: string, duration: string, size: string) => `${name} · ${duration} · ${size}`,
  mailKeep: (days: number, until: string) =>
    `Play it or download it on your order page for ${days} days after it was sent, until ${until}.`,
  playYourTape: "Play your tape",
  progress: (done: string, total: string, percent: number) => `${done} of ${total} (${percent}%)`,
  timeLeft: (left: string) => `${left} left`,
  resumed: (from: string) => `resumed after ${from}`,
  unfinished: (fileName: string) =>
    `An upload of ${fileName} stopped before it finished: choose the same file to go on from there.`,
  connectionLost: "The connection dropped: trying again...",
  uploadFailed: "The upload stopped. Choose the file again and press Upload: it goes on where it stopped.",
} as const;
