// The simulated shopper of the load and crash tests, as a browser without JavaScript
// would do it: log in, open the storefront, add ten tracks one after the other (each
// a POST answered by a redirect, carrying the shopper's own cookies), generate an
// order code, open the review dialog to read it, transmit. A run can stop at a lost
// connection (the server was killed) and resume later from the same step with the
// same cookies, as a person pressing the button again would.
import { Client, type Account } from "./setup";

/** Ten distinct song ids ("1".."30") for shopper i, in a shopper-specific order. */
function tracksFor(i: number): string[] {
  const ids = Array.from({ length: 30 }, (_, k) => String(k + 1));
  let seed = (i + 1) * 2654435761;
  for (let k = ids.length - 1; k > 0; k--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (k + 1);
    [ids[k], ids[j]] = [ids[j], ids[k]];
  }
  return ids.slice(0, 10);
}

export type Run = {
  index: number;
  account: Account;
  tracks: string[];
  client: Client;
  /** The next step to run (0..STEPS). */
  step: number;
  code: string | null;
  /** The transmit got its success answer (303 to /). */
  transmitted: boolean;
  /** Every status the server answered, in order. */
  statuses: number[];
  /** Answers that were not the expected one (the test expects none). */
  unexpected: string[];
  /** Connections lost (fetch failed) and at which step. */
  lost: number[];
};

export const STEPS = 15; // login, storefront, 10 adds, generate, review, transmit

export function newRun(index: number, account: Account, base: string): Run {
  return {
    index,
    account,
    tracks: tracksFor(index),
    client: new Client(base),
    step: 0,
    code: null,
    transmitted: false,
    statuses: [],
    unexpected: [],
    lost: [],
  };
}

/** Runs the shopper from its current step to the end, or until a connection is lost. */
export async function drive(run: Run, password: string, onTransmitted?: (run: Run) => void): Promise<"done" | "lost"> {
  while (run.step < STEPS) {
    const step = run.step;
    let ok: boolean;
    try {
      ok = await perform(run, step, password);
    } catch (error) {
      if (isConnectionError(error)) {
        run.lost.push(step);
        return "lost";
      }
      throw error;
    }
    if (!ok) return "done"; // an unexpected answer was recorded; stop this shopper
    run.step++;
    if (step === STEPS - 1) {
      run.transmitted = true;
      onTransmitted?.(run);
    }
  }
  return "done";
}

async function perform(run: Run, step: number, password: string): Promise<boolean> {
  const c = run.client;
  const expect = (
    label: string,
    res: { status: number; location: string | null; body: string },
    status: number,
    location?: string,
  ) => {
    run.statuses.push(res.status);
    if (res.status === status && (location === undefined || res.location === location)) return true;
    run.unexpected.push(`${run.account.email} ${label}: ${res.status} ${res.location ?? ""} ${res.body.slice(0, 200)}`);
    return false;
  };
  if (step === 0) return expect("login", await c.logIn(run.account.email, password), 302, "/");
  if (step === 1) return expect("storefront", await c.get("/"), 200);
  if (step >= 2 && step <= 11) {
    const songId = run.tracks[step - 2];
    return expect(`add ${songId}`, await c.post("/", { intent: "add", songId }), 303, "/");
  }
  if (step === 12) return expect("generate", await c.post("/review", { intent: "generate-code" }), 303, "/review");
  if (step === 13) {
    const res = await c.get("/review");
    if (!expect("review", res, 200)) return false;
    run.code = /name="code" value="([A-Z0-9]{8})"/.exec(res.body)?.[1] ?? null;
    if (!run.code) run.unexpected.push(`${run.account.email} review: no order code on the page`);
    return run.code !== null;
  }
  return expect("transmit", await c.post("/review", { intent: "transmit", code: run.code ?? "" }), 303, "/");
}

export function isConnectionError(error: unknown): boolean {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.cause?.code ?? "";
  return (
    e?.name === "TypeError" &&
    (/fetch failed|terminated|other side closed/i.test(e.message ?? "") ||
      ["ECONNREFUSED", "ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED"].includes(code))
  );
}
