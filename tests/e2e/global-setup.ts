// Before any test: the mixer accounts MIXER_EMAILS names (playwright.config.ts) are
// signed up and confirmed through the real forms, so tests running in parallel only
// ever log in as them.
import type { FullConfig } from "@playwright/test";
import { confirmationLink } from "../support/outbox";
import { MIXERS, PASSWORD } from "./fixtures";

export default async function globalSetup(config: FullConfig) {
  const base = config.projects[0].use.baseURL!;
  for (const mixer of MIXERS) {
    const signUp = await fetch(`${base}/auth?mode=signup`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: new URLSearchParams({ mode: "signup", username: mixer.username, email: mixer.email, password: PASSWORD }),
      redirect: "manual",
    });
    if (signUp.status !== 302) throw new Error(`mixer sign-up answered ${signUp.status}`);
    const confirmed = await fetch(await confirmationLink(process.env.E2E_DATA_DIR!, mixer.email), { redirect: "manual" });
    if (confirmed.status !== 302) throw new Error(`mixer confirmation answered ${confirmed.status}`);
  }
}
