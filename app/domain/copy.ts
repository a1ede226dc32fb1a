// Word for word as the product owner wrote them. Each page ships only the words it shows: the
// words of every page (the header, the error pages) and those several pages share are here,
// each page's own in its file (copy-home.ts, copy-review.ts, copy-orders.ts, copy-auth.ts,
// copy-console.ts), and a word has one home.

export const COPY = {
  /** The header of every page. */
  nav: {
    account: "Account",
    console: "Mixer Console",
    myMixtapes: "My Mixtapes",
    logout: "Logout",
    newReplies: (n: number) => `${n} new ${n === 1 ? "reply" : "replies"}`,
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
} as const;

/** An order's words on more than one page: the placed order's card on `/`, the review, the order pages and emails. */
export const ORDER_WORDS = {
  orderCode: "Order Code",
  payNow: "Pay now",
  paid: "Paid",
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
  slowBody: "The request's body took too long to arrive. Please try again.",
  unsupported: "Unsupported form encoding: send the form as application/x-www-form-urlencoded.",
  method: "This method is not allowed here: pages answer GET, forms POST.",
} as const;

export const SHOP_COPY = {
  closed: "The shop is closed",
  full: "The queue is full",
  fullText: "Orders open again as tapes go out.",
} as const;

/** A shopper's name as the mixer and the emails show it (domain/display-name.ts, on the server). */
export const DISPLAY_NAME_COPY = {
  loading: "...",
  unknown: "(unknown user)",
  profileError: "(profile error)",
  deletedAccount: "Deleted account",
} as const;
