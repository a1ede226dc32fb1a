// The process's one logger (pino): JSON lines in production, pretty in development.
import pino, { type Logger } from "pino";
import { getConfig } from "./config.server";

let logger: Logger | undefined;

export function getLog(): Logger {
  if (!logger) {
    const { LOG_LEVEL, NODE_ENV } = getConfig();
    logger = pino({
      level: LOG_LEVEL,
      base: undefined,
      ...(NODE_ENV === "development"
        ? {
            transport: {
              target: "pino-pretty",
              options: { ignore: "pid,hostname", singleLine: true, translateTime: "HH:MM:ss" },
            },
          }
        : {}),
    });
  }
  return logger;
}

/** The message of an unknown thrown value, for a log line (never sent to a client). */
export const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));
