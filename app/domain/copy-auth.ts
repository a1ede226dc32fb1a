// Copy of the sign-in, recovery and account pages (see copy.ts).

export const AUTH_COPY = {
  loginHeading: "REBEL LOGIN",
  signupHeading: "SIGN UP",
  toSignup: "Need an account? Sign up",
  toLogin: "Already a rebel? Log in",
  username: "Username",
  email: "Email",
  emailOrUsername: "Email or Username",
  password: "Password",
  login: "Login",
  signUp: "Sign Up",
  processing: "Processing...",
  allRequired: "All fields are required.",
  invalidEmail: "Please provide a valid email address.",
  passwordTooShort: "Password must be at least 8 characters.",
  tooLong: "That entry is too long.",
  controlCharacters: "That entry contains characters that cannot be used. Please retype it.",
  usernameNotFound: "Username not found.",
  usernameLogin: "Username login requires that your account was registered with a username. Please sign up with a username.",
  usernameTaken: "Username already taken.",
  usernameFormat: "Username must be 2 to 32 letters, digits, dots, dashes or underscores.",
  couldNotSetUsername: "Could not set username: ",
  unexpected: "[AuthPage]: Unexpected state, please try refreshing the page.",
  linkInvalid: "This confirmation link is invalid or has expired. Sign up again or log in.",
  /** Account recovery (issue 17). */
  forgotLink: "Forgot password?",
  forgotHeading: "RESET PASSWORD",
  sendResetLink: "Send reset link",
  backToLogin: "Back to login",
  resetHeading: "SET NEW PASSWORD",
  newPassword: "New password",
  updatePassword: "Update password",
  resetLinkInvalid: "This reset link is invalid, already used or expired.",
  requestNewLink: "Ask for a new reset link",
  resendConfirmation: "Resend confirmation email",
};

export const ACCOUNT_COPY = {
  title: "YOUR ACCOUNT",
  email: "Email",
  username: "Username",
  noUsername: "(none)",
  passwordHeading: "Password",
  currentPassword: "Current password",
  newPassword: "New password",
  changePassword: "Change password",
  wrongCurrentPassword: "Your current password is not correct.",
};

/** The shopper owns the account (issue 26): their data, email, sessions, and leaving. */
export const OWN_ACCOUNT_COPY = {
  dataHeading: "Your data",
  dataText: "Your profile, every order with its messages, and the order emails sent to you, in one JSON file.",
  download: "Download my data",
  emailHeading: "Change email",
  newEmail: "New email",
  changeEmail: "Change email",
  emailPending: (email: string) =>
    `Waiting for confirmation: ${email}. Open the link sent there within an hour; until then your current address stays.`,
  sameEmail: "That is already your email address.",
  emailChangeSent: {
    message: "Check your new email!",
    description: "Open the link sent to the new address to finish the change.",
  },
  emailChanged: { message: "Email changed" },
  emailChangeHalfway: { message: "Link accepted", description: "Now open the link sent to your other address." },
  emailLinkHeading: "CHANGE EMAIL",
  emailLinkInvalid: "This email change link is invalid, already used or expired.",
  toAccount: "Back to your account",
  sessionsHeading: "Sessions",
  sessionsText: "Signed in on a device you no longer use? End every session but this one.",
  signOutOthers: "Sign out everywhere else",
  otherSessionsEnded: (n: number | null) =>
    n === null ? "Other sessions signed out." : `${n} other ${n === 1 ? "session" : "sessions"} signed out.`,
  deleteHeading: "Delete account",
  deleteText:
    "Your username, email, notes, messages and sessions are erased. Orders not started and unpaid are cancelled, and every order stays in the shop's books without your name (tax law). This cannot be undone.",
  typeDelete: "Type DELETE to confirm",
  deleteWord: "DELETE",
  typeDeleteError: "Type DELETE to confirm.",
  deleteAccount: "Delete my account",
  deleteNotConfigured:
    "Account deletion is not configured on this server. Please write to the shop to have your account deleted.",
  accountDeleted: { message: "Account deleted" },
};

/** What the login page says to a newcomer beside the form, and its lasting notices (issue 27). */
export const FRONT_COPY = {
  lede: (name: string) => `Personal DJ mixtapes, blended by hand by ${name} and sent to you.`,
  open: "The shop is open",
  openText: "Orders are being taken now.",
  whatYouGet: "What you get",
  perks: (name: string, options: string[]) => [
    "Up to 10 songs you pick from a library of 30",
    "A cover design and a codename for your tape",
    `Options: ${options.join(", ")}`,
    `A personal note to ${name}`,
  ],
  designs: "Four cover designs",
  preview: "Hear a preview",
  /** The lasting notices (the toasts say it too, and fade). */
  checkEmailNotice: (email: string) => `We sent a confirmation link to ${email}. Open it to continue.`,
  resetNotice: "If an account exists for that address, a reset link is on its way. It works once, for one hour.",
  resentNotice: "If that account still needs confirming, a new confirmation link is on its way.",
};
