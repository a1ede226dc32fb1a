// zod schemas for every input: the deck cookie, deck intents and the auth forms.
import { z } from "zod";
import { CODENAME_RE } from "./codename";
import { COPY } from "./copy";
import { MAX_TRACKS, NOTE_MAX, TOGGLE_KEYS, type Deck, type DeckIntent } from "./deck";
import { findDesign, findSong, COVER_BACKGROUNDS } from "./catalogue";
import { ORDER_CODE_RE } from "./order-code";

// No eval-based fast paths: they trip the Content-Security-Policy in browsers.
z.config({ jitless: true });

// ---- The deck cookie -------------------------------------------------------------

const songId = z.string().refine((id) => findSong(id) !== undefined);

export const deckSchema = z.object({
  uid: z.string().uuid(),
  songs: z
    .array(songId)
    .max(MAX_TRACKS)
    .refine((ids) => new Set(ids).size === ids.length),
  design: z
    .string()
    .refine((id) => findDesign(id) !== undefined)
    .nullable(),
  toggles: z.object({ Aikavoice: z.boolean(), djIntro: z.boolean(), retronoise: z.boolean() }),
  note: z.string().max(NOTE_MAX),
  code: z.string().regex(ORDER_CODE_RE).nullable(),
  codename: z.string().regex(CODENAME_RE),
  coverNo: z.number().int().min(100).max(999),
  coverBg: z
    .number()
    .int()
    .min(0)
    .max(COVER_BACKGROUNDS.length - 1),
}) satisfies z.ZodType<Deck>;

/** A stored deck, or null when it is missing, malformed, stale or foreign. */
export function readDeck(value: unknown, uid: string): Deck | null {
  const parsed = deckSchema.safeParse(value);
  if (!parsed.success || parsed.data.uid !== uid) return null;
  return parsed.data;
}

// ---- Deck intents ----------------------------------------------------------------

const FIELD_MAX = 200;
const field = z.string().max(FIELD_MAX);
const checkbox = z
  .string()
  .max(10)
  .optional()
  .transform((v) => v === "on" || v === "true");

const intentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("add"), songId: field }),
  z.object({ intent: z.literal("remove"), songId: field }),
  z.object({
    intent: z.literal("move"),
    songId: field,
    to: z
      .string()
      .regex(/^-?\d{1,3}$/)
      .transform(Number),
  }),
  z.object({
    intent: z.literal("design"),
    designId: field.transform((v) => (v === "" || v === "none" ? null : v)),
  }),
  z.object({
    intent: z.literal("options"),
    note: z.string().max(2000).optional().default(""),
    Aikavoice: checkbox,
    djIntro: checkbox,
    retronoise: checkbox,
  }),
]);

export const DECK_INTENTS = ["add", "remove", "move", "design", "options"] as const;

export type IntentParse = { ok: true; intent: DeckIntent } | { ok: false; error: string };

/** Parses a deck form. Line endings in the note are normalised to \n first. */
export function parseDeckIntent(form: FormData | URLSearchParams): IntentParse {
  const raw: Record<string, string> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value === "string" && !(key in raw)) raw[key] = value;
  }
  if (!DECK_INTENTS.includes(raw.intent as (typeof DECK_INTENTS)[number])) {
    return { ok: false, error: COPY.errors.unknownIntent };
  }
  const parsed = intentSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: COPY.errors.badRequest };
  const v = parsed.data;
  if (v.intent === "options") {
    const note = v.note.replace(/\r\n?/g, "\n");
    if (note.length > NOTE_MAX) return { ok: false, error: COPY.home.noteTooLong };
    const toggles = Object.fromEntries(TOGGLE_KEYS.map((k) => [k, v[k]])) as Record<(typeof TOGGLE_KEYS)[number], boolean>;
    return { ok: true, intent: { intent: "options", toggles, note } };
  }
  return { ok: true, intent: v };
}

// ---- Auth forms ------------------------------------------------------------------

/** Spec: text, an @, a dot, no spaces. */
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PASSWORD_MIN = 8;
export const USERNAME_RE = /^[A-Za-z0-9_.-]{2,32}$/;

const required = z.string({ error: COPY.auth.allRequired }).trim().min(1, COPY.auth.allRequired).max(320, COPY.auth.tooLong);

export const loginSchema = z.object({
  mode: z.literal("login"),
  email: required,
  password: z.string({ error: COPY.auth.allRequired }).min(1, COPY.auth.allRequired).max(1024, COPY.auth.tooLong),
});

export const signupSchema = z.object({
  mode: z.literal("signup"),
  username: required.pipe(z.string().regex(USERNAME_RE, COPY.auth.usernameFormat)),
  email: required.pipe(z.string().regex(EMAIL_RE, COPY.auth.invalidEmail)),
  password: z
    .string({ error: COPY.auth.allRequired })
    .min(1, COPY.auth.allRequired)
    .max(1024, COPY.auth.tooLong)
    .pipe(z.string().min(PASSWORD_MIN, COPY.auth.passwordTooShort)),
});

export const authSchema = z.discriminatedUnion("mode", [loginSchema, signupSchema]);
export type AuthSubmission = z.infer<typeof authSchema>;

export const transmitSchema = z.object({
  code: z
    .string({ error: COPY.review.codeRequired })
    .trim()
    .min(1, COPY.review.codeRequired)
    .max(64, COPY.review.codeFormat)
    .regex(ORDER_CODE_RE, COPY.review.codeFormat),
});
