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
