// The hostile requests to /review (generate-code, transmit), and signed-out posts (tests/system/hostile.test.ts).
import { COPY } from "~/domain/copy";
import { REVIEW_COPY } from "~/domain/copy-review";
import { big, UUID, type Case } from "./case";

export const reviewCases: Case[] = [
  // ---- /review ---------------------------------------------------------------------
  {
    name: "review: no intent",
    as: "A",
    path: "/review",
    raw: "code=ABCDEFGH",
    status: 400,
    message: COPY.errors.unknownIntent,
  },
  {
    name: "review: unknown intent",
    as: "A",
    path: "/review",
    raw: "intent=pay",
    status: 400,
    message: COPY.errors.unknownIntent,
  },
  {
    name: "transmit: no code",
    as: "A",
    path: "/review",
    raw: "intent=transmit",
    status: 400,
    message: REVIEW_COPY.codeRequired,
  },
  {
    name: "transmit: malformed code",
    as: "A",
    path: "/review",
    raw: "intent=transmit&code=abc",
    status: 400,
    message: REVIEW_COPY.codeFormat,
  },
  {
    name: "transmit: lower-case code",
    as: "A",
    path: "/review",
    raw: "intent=transmit&code=abcd1234",
    status: 400,
    message: REVIEW_COPY.codeFormat,
  },
  { name: "transmit: 10 KB code", as: "A", path: "/review", raw: `intent=transmit&code=${big}`, status: 400 },
  {
    name: "transmit: B's order code with A's session",
    as: "A",
    path: "/review",
    raw: ({ orderB }) => `intent=transmit&code=${orderB}`,
    status: 409,
    message: REVIEW_COPY.codeStale,
  },
  {
    name: "transmit: a code that is not on the deck",
    as: "A",
    path: "/review",
    raw: "intent=transmit&code=ZZZZ9999",
    status: 409,
    message: REVIEW_COPY.codeStale,
  },
  {
    name: "transmit: B's code with a user id field",
    as: "A",
    path: "/review",
    raw: ({ orderB }) => `intent=transmit&code=${orderB}&user_id=${UUID}`,
    status: 409,
    message: REVIEW_COPY.codeStale,
  },

  // ---- signed out: the app redirects to /auth by design ------------------------------
  { name: "signed out: add", as: "anon", path: "/", raw: "intent=add&songId=4", status: 302, location: "/auth" },
  {
    name: "signed out: transmit B's code",
    as: "anon",
    path: "/review",
    raw: ({ orderB }) => `intent=transmit&code=${orderB}`,
    status: 302,
    location: "/auth",
  },
  { name: "signed out: logout", as: "anon", path: "/logout", raw: "", status: 302, location: "/auth" },
];
