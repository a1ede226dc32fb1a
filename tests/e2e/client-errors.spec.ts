// An error the browser meets reaches the server's log: the page's data request fails in the
// browser (the network is cut by the test, no test-only route), the error boundary shows the
// error and sends its report to POST /client-errors, which answers 204
// (tests/system/client-errors.test.ts checks the log line itself).
import { expect, jsEnabled, test, waitForScripts } from "./fixtures";

test("a failed navigation shows the error page and reports the error to the server", async ({ page }, testInfo) => {
  test.skip(!jsEnabled(testInfo), "the report is sent by the page's JavaScript");
  await page.goto("/auth");
  await waitForScripts(page);
  await page.route("**/auth.data**", (route) => route.abort("connectionfailed"));
  const report = page.waitForRequest((r) => new URL(r.url()).pathname === "/client-errors" && r.method() === "POST");

  await page.getByTestId("auth-mode-toggle").click();

  await expect(page.getByTestId("error-heading")).toHaveText("Unexpected Application Error!");
  const sent = await report;
  const form = new URLSearchParams(sent.postData() ?? "");
  expect(form.get("page")).toBe("/auth");
  expect(form.get("message")).toMatch(/^TypeError: /);
  expect((await sent.response())?.status()).toBe(204);
});
