// What the composition root (server/root.ts) builds once per process and hands to every request
// through rootContext (server/app.ts sets it): one instance of each, in production and under the dev
// server's module reloads alike. Types only, and the context: each part is built by its own module.
import type { Logger } from "pino";
import { createContext, type RouterContextProvider } from "react-router";
import type { Backend, BackendRequest, User } from "./backend/port.server";
import type { Config } from "./platform/config.server";
import type { Mailer } from "./platform/mailer.server";
import type { RateLimits } from "./platform/rate-limiter.server";
import type { Storage } from "./storage/port.server";

/** Work beside the requests (platform/background-job.server.ts): polled, woken by a request, stopped at shutdown. */
export type Worker = { nudge(): void; stop(): Promise<void> };
/** The tape chores: runNow settles once the queued deletions were tried. */
export type TapeJobsWorker = Worker & { runNow(): Promise<void> };

/** The drop's resumable uploads (services/tus.server.ts). */
export type TusUploads = {
  /** Answers one tus request of a mixer; afterResponse runs a task once the answer is written or its client is gone. */
  answer(
    request: Request,
    sender: { user: User; api: BackendRequest },
    afterResponse: (task: () => void) => void,
  ): Promise<Response>;
  /** Removes the staged uploads abandoned for a day (the tape chores' hourly sweep); how many. */
  sweep(): Promise<number>;
};

/** In the order server/root.ts builds them; it closes them in the reverse order. */
export type Root = {
  readonly config: Config;
  readonly log: Logger;
  readonly mailer: Mailer;
  readonly backend: Backend;
  readonly storage: Storage;
  readonly rateLimits: RateLimits;
  readonly orderEmails: Worker;
  readonly tus: TusUploads;
  readonly tapeJobs: TapeJobsWorker;
};

export const rootContext = createContext<Root>();

export const rootOf = (context: Readonly<RouterContextProvider>): Root => context.get(rootContext);
