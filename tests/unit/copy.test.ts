import { describe, expect, it } from "vitest";
import { COPY, TOAST_COPY } from "~/domain/copy";
import { AUTH_COPY, ACCOUNT_COPY, FRONT_COPY } from "~/domain/copy-auth";
import { MAX_TRACKS } from "~/domain/deck";

// Exact strings from the specification, so a typo in copy.ts fails here.
describe("copy matches the specification word for word", () => {
  it("auth screen (section 2)", () => {
    expect(AUTH_COPY.loginHeading).toBe("REBEL LOGIN");
    expect(AUTH_COPY.signupHeading).toBe("SIGN UP");
    expect(AUTH_COPY.emailOrUsername).toBe("Email or Username");
    expect(AUTH_COPY.login).toBe("Login");
    expect(AUTH_COPY.signUp).toBe("Sign Up");
    expect(AUTH_COPY.processing).toBe("Processing...");
    expect(AUTH_COPY.unexpected).toBe("[AuthPage]: Unexpected state, please try refreshing the page.");
  });
  it("validation messages (section 5)", () => {
    expect(AUTH_COPY.allRequired).toBe("All fields are required.");
    expect(AUTH_COPY.invalidEmail).toBe("Please provide a valid email address.");
    expect(AUTH_COPY.usernameNotFound).toBe("Username not found.");
    expect(AUTH_COPY.usernameLogin).toBe(
      "Username login requires that your account was registered with a username. Please sign up with a username.",
    );
    expect(AUTH_COPY.usernameTaken).toBe("Username already taken.");
    expect(AUTH_COPY.couldNotSetUsername).toBe("Could not set username: ");
    expect(TOAST_COPY.userNotFound).toBe("User not found.");
  });
  it("home screen (section 2)", () => {
    expect(COPY.home.myMixtapes).toBe("My Mixtapes");
    expect(COPY.home.logout).toBe("Logout");
    expect(COPY.home.addToMixtape).toBe("Add to Mixtape");
    expect(COPY.home.chooseDesign).toBe("Choose Your Cover Design");
    expect(COPY.home.deckTitle).toBe("Virtual Mixtape Deck");
    expect(COPY.home.moveUp).toBe("Move Up");
    expect(COPY.home.moveDown).toBe("Move Down");
    expect(COPY.home.reviewOrder).toBe("Review Order");
    expect(COPY.home.mixtapeFull).toBe("Mixtape full");
    expect(COPY.home.coverNo).toBe("No.");
  });
  it("tracks loaded counter", () => {
    expect(COPY.home.tracksLoaded(0, MAX_TRACKS)).toBe("Tracks Loaded: 0 / 10");
    expect(COPY.home.tracksLoaded(10, MAX_TRACKS)).toBe("Tracks Loaded: 10 / 10");
  });
  it("empty deck hint with {name} (section 8)", () => {
    expect(COPY.home.emptyHint("DJ Kai")).toBe(
      "Choose your favorite tracks. Place your order and DJ Kai will mix your virtual tape and send it to you!",
    );
  });
  it("note label and placeholder (section 9)", () => {
    expect(COPY.home.noteLabel("DJ Kai")).toBe("Message to DJ Kai (Special instructions)");
    expect(COPY.home.notePlaceholder).toBe("The System can't stop your signal...");
  });
  it("option labels (section 9)", () => {
    expect(COPY.toggles.Aikavoice("DJ Kai")).toBe("Add DJ Kai voice");
    expect(COPY.toggles.djIntro()).toBe("Include Custom Intro");
    expect(COPY.toggles.retronoise()).toBe("Add cassette noise");
  });
  it("account recovery (issue 17)", () => {
    expect(AUTH_COPY.forgotLink).toBe("Forgot password?");
    expect(AUTH_COPY.forgotHeading).toBe("RESET PASSWORD");
    expect(AUTH_COPY.email).toBe("Email");
    expect(AUTH_COPY.sendResetLink).toBe("Send reset link");
    expect(TOAST_COPY.resetSent).toEqual({
      message: "Check your email!",
      description: "If an account exists for that address, a reset link is on its way.",
    });
    expect(AUTH_COPY.resetHeading).toBe("SET NEW PASSWORD");
    expect(AUTH_COPY.newPassword).toBe("New password");
    expect(AUTH_COPY.updatePassword).toBe("Update password");
    expect(TOAST_COPY.passwordUpdated).toEqual({ message: "Password updated", description: "You're back in, rebel." });
    expect(AUTH_COPY.resendConfirmation).toBe("Resend confirmation email");
    expect(ACCOUNT_COPY.changePassword).toBe("Change password");
    expect(TOAST_COPY.passwordChanged).toEqual({ message: "Password changed" });
  });
  it("toasts (section 8)", () => {
    expect(TOAST_COPY.signedIn).toEqual({ message: "Signed in!", description: "Welcome back, rebel." });
    expect(TOAST_COPY.checkEmail).toEqual({ message: "Check your email!", description: "Confirm your sign up to continue." });
    expect(TOAST_COPY.checkEmailNoUser.message).toBe("Check your email! Confirm your sign up to continue.");
    expect(TOAST_COPY.signedOut.message).toBe("Signed out");
    expect(TOAST_COPY.orderSubmitted).toEqual({
      message: "Order Submitted!",
      description: "Your order was transmitted to the underground. Await your encrypted drop!",
    });
    expect(TOAST_COPY.submissionFailed).toBe("Submission Failed");
    expect(TOAST_COPY.error).toBe("Error");
  });
  it("review dialog (section 2 and 9)", () => {
    expect(COPY.review.none).toBe("None");
    expect(COPY.review.noDesign).toBe("No Design");
    expect(COPY.review.totalValue).toBe("$10+");
    expect(COPY.review.deliveryValue).toBe("3–5 days");
    expect(COPY.review.generateCode).toBe("Generate Order Code");
    expect(COPY.review.regenerateCode).toBe("Regenerate Order Code");
    expect(COPY.review.transmit).toBe("Transmit Order");
    expect(COPY.review.transmitting).toBe("Transmitting...");
    expect(COPY.review.payNow).toBe("Pay now");
  });
  it("the delivery range uses an en dash", () => {
    expect(COPY.review.deliveryValue.charCodeAt(1)).toBe(0x2013);
  });
  it("my mixtapes and errors (section 2)", () => {
    expect(COPY.orders.backHome).toBe("Back to Home");
    expect(COPY.orders.empty).toBe("No mixtape orders found. Go make your first order!");
    expect(COPY.orders.none).toBe("None");
    expect(COPY.errors.notFound).toBe("Oops! Page not found");
    expect(COPY.errors.unexpected).toBe("Unexpected Application Error!");
  });
  it("display name fallbacks (section 8 and 9)", () => {
    expect(COPY.displayName.loading).toBe("...");
    expect(COPY.displayName.unknown).toBe("(unknown user)");
    expect(COPY.displayName.profileError).toBe("(profile error)");
  });
});

// Issue 27's words, exactly as the issue gives them.
describe("copy of issue 27 (the front door, the lasting notices, a full deck, the review's steps)", () => {
  it("says what the issue says", () => {
    expect(FRONT_COPY.checkEmailNotice("rebel@example.com")).toBe(
      "We sent a confirmation link to rebel@example.com. Open it to continue.",
    );
    expect(COPY.home.mixtapeFullReason).toBe("Mixtape full: remove a track to add another");
    expect(COPY.home.mixtapeFull).toBe("Mixtape full");
    expect(COPY.review.codeRequired).toMatch(/^Generate an order code first\.?$/);
    expect(FRONT_COPY.perks("DJ Aika", ["a", "b"])).toEqual([
      "Up to 10 songs you pick from a library of 30",
      "A cover design and a codename for your tape",
      "Options: a, b",
      "A personal note to DJ Aika",
    ]);
    expect(FRONT_COPY.lede("DJ Aika")).toContain("DJ Aika");
  });
});
