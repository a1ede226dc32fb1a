// Before any test: the mixer accounts MIXER_EMAILS names (playwright.config.ts) are
// signed up and confirmed through the real forms, so tests running in parallel only
// ever log in as them.
import fs from "node:fs/promises";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import { MIXERS, PASSWORD } from "./fixtures";

async function confirmationLink(dataDir: string, to: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    for (const f of await fs.readdir(path.join(dataDir, "outbox")).catch(() => [] as string[])) {
      const mail = JSON.parse(await fs.readFile(path.join(dataDir, "outbox", f), "utf8")) as { to: string; text: string };
      const link = mail.to === to ? /https?:\/\/\S+\/auth\/confirm\S*/.exec(mail.text)?.[0] : undefined;
      if (link) return link;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no confirmation mail to ${to}`);
}

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
