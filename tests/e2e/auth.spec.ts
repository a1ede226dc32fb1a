// The auth page: its two modes, validation and messages, sign-up to sign-out. Describe
// blocks carry the product spec's section titles.
import {
  expectToast,
  logOut,
  confirmLink,
  expect,
  fillSignUp,
  logIn,
  newIdentity,
  readMail,
  signUpAndConfirm,
  jsEnabled,
  test,
  waitForScripts,
} from "./fixtures";

test.describe("the deployer's switches", () => {
  // npm test runs the smoke specs again with DEFER_SCRIPTS=0 and BUFFER_HTML=0 (scripts/test.js): this says which run it is.
  test("the scripts load as the server was told: deferred after the first paint, or React Router's own <Scripts/>", async ({
    page,
  }, testInfo) => {
    const html = await (await page.request.get("/auth")).text();
    const deferred = process.env.DEFER_SCRIPTS !== "0";
    expect(html.includes("<noscript>"), `DEFER_SCRIPTS=${process.env.DEFER_SCRIPTS ?? "(unset)"}`).toBe(deferred);
    await page.goto("/auth");
    if (jsEnabled(testInfo)) await waitForScripts(page);
  });
});

test.describe("2. /auth", () => {
  test("with JavaScript the button reads Processing... while the answer is on its way", async ({ page }, testInfo) => {
    test.skip(!jsEnabled(testInfo), "a pending label needs JavaScript; without it the browser shows its own progress");
    await page.goto("/auth");
    await waitForScripts(page);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/auth.data**", async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel("Email or Username").fill("nobody@example.com");
    await page.getByLabel("Password").fill("not-the-password-1");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByRole("button", { name: "Processing..." })).toBeDisabled();
    release();
    await expect(page.getByRole("button", { name: "Login" })).toBeEnabled();
  });

  test("login mode: heading, fields, button and the toggle link to sign-up mode", async ({ page }) => {
    await page.goto("/auth");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("REBEL LOGIN");
    await expect(page.getByLabel("Email or Username")).toBeVisible();
    await expect(page.getByLabel("Password")).toBeVisible();
    await expect(page.getByLabel("Username", { exact: true })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
    await page.getByTestId("auth-mode-toggle").click();
    await expect(page).toHaveURL(/mode=signup/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("SIGN UP");
    await expect(page.getByLabel("Username", { exact: true })).toBeVisible();
    await expect(page.getByLabel("Email", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign Up" })).toBeVisible();
    await page.getByTestId("auth-mode-toggle").click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("REBEL LOGIN");
  });

  test("sign-up, the emailed link, and landing on / with the username in the header", async ({ page }) => {
    const s = newIdentity();
    await fillSignUp(page, s);
    await expectToast(page, "Check your email!");
    await expectToast(page, "Confirm your sign up to continue.");
    // The answer stays on the page after the toast fades, with the resend link.
    const notice = page.getByTestId("lasting-notice");
    await expect(notice).toContainText(`We sent a confirmation link to ${s.email}. Open it to continue.`);
    expect(await notice.evaluate((el) => el.closest("[data-testid=toast]"))).toBeNull();
    const first = await confirmLink(s.email);
    await notice.getByRole("button", { name: "Resend confirmation email" }).click();
    await expect(notice).toContainText("If that account still needs confirming, a new confirmation link is on its way.");
    const resent = await readMail(s.email, (m) => !m.text.includes(new URL(first).search));
    const link = resent.text.match(/https?:\/\/\S+/)![0];
    await page.goto(link);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("display-name")).toHaveText(s.username);
    // A first sign-in: a welcome, not "Welcome back".
    await expectToast(page, "Welcome, rebel.");
    await expect(page.getByTestId("toast").filter({ hasText: "Welcome back" })).toHaveCount(0);
    // The used link, opened again while signed in: the storefront, not an error.
    await page.goto(link);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("confirm-error")).toHaveCount(0);
    // Signed out, the link works once.
    await page.context().clearCookies();
    await page.goto(link);
    await expect(page.getByTestId("confirm-error")).toContainText("invalid or has expired");
  });

  test("login by email shows the toast, logout revokes the session", async ({ page, context }) => {
    const s = await signUpAndConfirm(page);
    await logOut(page);
    await logIn(page, s.email, s.password);
    await expect(page).toHaveURL(/\/$/);
    await expectToast(page, "Signed in!");
    await expectToast(page, "Welcome back, rebel.");
    // Logout is server-side: the old session cookie no longer works.
    const before = await context.cookies();
    await logOut(page);
    await expect(page).toHaveURL(/\/auth$/);
    await context.clearCookies();
    await context.addCookies(before);
    await page.goto("/");
    await expect(page).toHaveURL(/\/auth$/);
  });

  test("redirects: signed-out to /auth, signed-in away from /auth", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/auth$/);
    await page.goto("/my-mixtapes");
    await expect(page).toHaveURL(/\/auth$/);
    await signUpAndConfirm(page);
    await page.goto("/auth");
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe("9. Toasts", () => {
  test("a toast shows, lasts 4 seconds by default, then leaves (with and without JS)", async ({ page }) => {
    await signUpAndConfirm(page);
    await page.getByRole("button", { name: "Logout" }).click();
    const toast = page.getByTestId("toast").filter({ hasText: "Signed out" });
    await expect(toast).toBeVisible();
    // The default display time is CSS (works without JS); JS removes it at the same time.
    expect(await toast.evaluate((el) => getComputedStyle(el).animationDuration)).toBe("4s");
    await expect(toast).toBeHidden({ timeout: 15_000 });
  });
});

test.describe("5. Validation rules", () => {
  test("missing fields: All fields are required.", async ({ page }) => {
    await page.goto("/auth");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByTestId("auth-error")).toHaveText("All fields are required.");
    await page.goto("/auth?mode=signup");
    await page.getByLabel("Email", { exact: true }).fill("someone@example.com");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expect(page.getByTestId("auth-error")).toContainText("All fields are required.");
  });

  test("sign-up email must look like an email", async ({ page }) => {
    const s = newIdentity();
    await fillSignUp(page, { ...s, email: "not an email@x" });
    await expect(page.getByTestId("auth-error")).toContainText("Please provide a valid email address.");
  });

  test("passwords need at least 8 characters", async ({ page }) => {
    const s = newIdentity();
    await fillSignUp(page, { ...s, password: "short" });
    await expect(page.getByTestId("auth-error")).toContainText("Password must be at least 8 characters.");
  });

  test("login with a username (any case): Username not found., Invalid login credentials, then signed in", async ({ page }) => {
    await logIn(page, "nobody_by_that_name", "whatever-123");
    await expect(page.getByTestId("auth-error")).toHaveText("Username not found.");
    const s = await signUpAndConfirm(page);
    await logOut(page);
    await logIn(page, s.username, "wrong-password-1");
    await expect(page.getByTestId("auth-error")).toHaveText("Invalid login credentials");
    await logIn(page, s.username.toUpperCase(), s.password);
    await expect(page).toHaveURL(/\/$/);
    await expectToast(page, "Welcome back, rebel.");
    await expect(page.getByTestId("display-name")).toHaveText(s.username);
  });
});

test.describe("8. Error catalogue", () => {
  test("sign-in failure shows the backend message in a red box", async ({ page }) => {
    const s = await signUpAndConfirm(page);
    await logOut(page);
    await logIn(page, s.email, "wrong-password-1");
    await expect(page.getByTestId("auth-error")).toHaveText("Invalid login credentials");
  });

  test("login before confirming the email", async ({ page }) => {
    const s = newIdentity();
    await fillSignUp(page, s);
    await expectToast(page, "Check your email!");
    await logIn(page, s.email, s.password);
    await expect(page.getByTestId("auth-error")).toHaveText("Email not confirmed");
  });

  test("a taken username: Username already taken., and no account is created", async ({ page }) => {
    const first = await signUpAndConfirm(page);
    await logOut(page);
    const second = { ...newIdentity(), username: first.username };
    await fillSignUp(page, second);
    await expect(page.getByTestId("auth-error")).toHaveText("Username already taken.");
    await logIn(page, second.email, second.password);
    await expect(page.getByTestId("auth-error")).toHaveText("Invalid login credentials");
  });

  test("unknown route: the 404 page with a link home", async ({ page }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByTestId("error-heading")).toHaveText("Oops! Page not found");
    await page.getByRole("link", { name: "Go home" }).click();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test("healthz answers 200 while the database answers", async ({ request }) => {
    const res = await request.get("/healthz");
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });
});
