// Word for word as the product owner wrote them; each page ships only the words it shows (docs/performance.md).

import type { OrderStatus } from "./order-status";

const statusName = (status: OrderStatus) => `${status[0].toUpperCase()}${status.slice(1)}`;

export const COPY = {
  nav: {
    account: "Account",
    console: "Mixer Console",
  },
  /** Its parser (domain/intents.ts) also runs in the storefront's bundle. */
  markSent: {
    deliveryLinkInvalid: "The delivery link must be an https:// address, without spaces or control characters.",
    messageTooLong: (max: number) => `The message is limited to ${max} characters.`,
    controlCharacters: "That text contains characters that cannot be stored. Please retype it.",
  },
  cancelReasonTooLong: (max: number) => `The reason is limited to ${max} characters.`,
  money: {
    amountInvalid: (currency: string) => `Type an amount in ${currency}, like 12.00.`,
  },
  home: {
    myMixtapes: "My Mixtapes",
    logout: "Logout",
    addToMixtape: "Add to Mixtape",
    mixtapeFull: "Mixtape full",
    alreadyInMixtape: "Already in your mixtape",
    inMixtape: "In Mixtape",
    added: (title: string) => `${title} added to your mixtape.`,
    play: "Play preview",
    pause: "Pause preview",
    chooseDesign: "Choose Your Cover Design",
    deckTitle: "Virtual Mixtape Deck",
    tracksLoaded: (n: number, max: number) => `Tracks Loaded: ${n} / ${max}`,
    moveUp: "Move Up",
    moveDown: "Move Down",
    remove: "Remove",
    reviewOrder: "Review Order",
    emptyHint: (name: string) =>
      `Choose your favorite tracks. Place your order and ${name} will mix your virtual tape and send it to you!`,
    notePlaceholder: "The System can't stop your signal...",
    noteLabel: (name: string) => `Message to ${name} (Special instructions)`,
    noteTooLong: (max: number) => `The note is limited to ${max} characters.`,
    saveOptions: "Save options",
    optionsSaved: "Options saved",
    saved: "Saved",
    noteControlCharacters: "The note contains characters that cannot be stored. Please retype it.",
    codename: "Codename",
    coverNo: "No.",
    mixtapeFullReason: "Mixtape full: remove a track to add another",
    steps: { label: "Order steps", songs: "Songs", cover: "Cover", options: "Options", review: "Review" },
  },
  toggles: {
    Aikavoice: (name: string) => `Add ${name} voice`,
    djIntro: () => "Include Custom Intro",
    retronoise: () => "Add cassette noise",
  },
  review: {
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
    totalValue: "$10+",
    delivery: "Delivery",
    deliveryValue: "3–5 days",
    generateCode: "Generate Order Code",
    regenerateCode: "Regenerate Order Code",
    transmit: "Transmit Order",
    transmitting: "Transmitting...",
    payNow: "Pay now",
    orderCode: "Order Code",
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
  },
  orders: {
    title: "My Mixtapes",
    status: (status: OrderStatus) => `Status: ${statusName(status)}`,
    paid: "Paid",
    paidAmount: (money: string) => `Paid ${money}`,
    refundPending: (money: string) => `Refund pending ${money}`,
    /** A refund of an amount nobody recorded (marked by hand before amounts were kept). */
    refunded: "Refunded",
    refundedAmount: (money: string) => `Refunded ${money}`,
    refundedOf: (part: string, whole: string) => `Refunded ${part} of ${whole}`,
    paymentRecorded: (money: string, code: string) => `Payment of ${money} recorded for ${code}`,
    refundRecorded: (money: string, code: string) => `Refund of ${money} recorded for ${code}`,
    expectedBy: (date: string) => `Expected by ${date}`,
    cancelOrder: "Cancel Order",
    cancelQuestion: (code: string) => `Cancel order ${code}?`,
    cancelYes: "Yes, cancel it",
    cancelKeep: "Keep it",
    cancelling: "Cancelling...",
    nowStatus: (code: string, status: OrderStatus) => `Order ${code} is now ${statusName(status)}`,
    payNow: "Pay now",
    listen: "Listen to your tape",
    fromMixer: (name: string) => `From ${name}`,
    placedHeading: "Order placed",
    placedText: (name: string) => `Your order is on its way to ${name}.`,
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
    page: (n: number) => `Page ${n}`,
  },
  errors: {
    notFound: "Oops! Page not found",
    goHome: "Go home",
    unexpected: "Unexpected Application Error!",
    notYours: "This page belongs to another account.",
    alreadyUpdated: "This order was already updated.",
    unavailable: "The mixtape service is unavailable right now. Your deck is safe; please try again in a moment.",
    unknownIntent: "Unknown action. Please reload the page and try again.",
    badRequest: "That request was not understood. Please reload the page and try again.",
    tooManyRequests: (wait: string) => `Too many attempts. Please wait ${wait} and try again.`,
  },
  deck: {
    unknownSong: "That song is not in the catalogue.",
    full: (max: number) => `Your mixtape is full: ${max} tracks at most.`,
    duplicate: "That song is already in your mixtape.",
    notInDeck: "That song is not in your mixtape.",
    moveOutOfRange: "That track cannot move there.",
    unknownDesign: "That cover design does not exist.",
  },
  displayName: {
    loading: "...",
    unknown: "(unknown user)",
    profileError: "(profile error)",
    deletedAccount: "Deleted account",
  },
} as const;

// Server-only words: separate exports, so no browser bundle carries them.
export const TOAST_COPY = {
  signedIn: { message: "Signed in!", description: "Welcome back, rebel." },
  /** The first sign-in, from the confirmation link: nobody is "back" yet. */
  welcome: { message: "Signed in!", description: "Welcome, rebel." },
  checkEmail: { message: "Check your email!", description: "Confirm your sign up to continue." },
  checkEmailNoUser: { message: "Check your email! Confirm your sign up to continue." },
  signedOut: { message: "Signed out" },
  resetSent: {
    message: "Check your email!",
    description: "If an account exists for that address, a reset link is on its way.",
  },
  confirmationResent: {
    message: "Check your email!",
    description: "If that account still needs confirming, a new confirmation link is on its way.",
  },
  passwordUpdated: { message: "Password updated", description: "You're back in, rebel." },
  passwordChanged: { message: "Password changed" },
  orderSubmitted: {
    message: "Order Submitted!",
    description: "Your order was transmitted to the underground. Await your encrypted drop!",
  },
  submissionFailed: "Submission Failed",
  error: "Error",
  userNotFound: "User not found.",
} as const;

export const REFUSAL_COPY = {
  crossSite: "Cross-site requests are not allowed.",
  tooMany: (wait: string) => `Too many requests from your address. Please wait ${wait} and try again.`,
  tooLarge: "The request is too large.",
  lengthRequired: "A Content-Length header is required.",
  unsupported: "Unsupported form encoding: send the form as application/x-www-form-urlencoded.",
  method: "This method is not allowed here: pages answer GET, forms POST.",
} as const;

export const SHOP_COPY = {
  closed: "The shop is closed",
  full: "The queue is full",
  fullText: "Orders open again as tapes go out.",
} as const;

/** The shopper's words for an order's money (domain/money.ts moneyBadges). */
export const SHOPPER_MONEY_WORDS = {
  paid: COPY.orders.paid,
  paidAmount: COPY.orders.paidAmount,
  refunded: COPY.orders.refunded,
  refundedAmount: COPY.orders.refundedAmount,
  refundedOf: COPY.orders.refundedOf,
  due: COPY.orders.refundPending,
};
