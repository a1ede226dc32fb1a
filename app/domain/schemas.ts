// Deck and review forms are read by domain/intents.ts, which the browser shares.
import { z } from "zod";
import { CODENAME_RE } from "./codename";
import { AUTH_COPY, OWN_ACCOUNT_COPY } from "./copy-auth";
import { CONSOLE_COPY } from "./copy-console";
import { MAX_TRACKS, NOTE_MAX, TOGGLE_KEYS, type Deck, type ToggleKey } from "./deck";
import { COVER_BACKGROUND_COUNT, findDesign, findSong, type Catalogue } from "./catalogue";
import { ORDER_CODE_RE } from "./order-code";
import { hasControlCharacter, textLength, withoutControlCharacters } from "./text";

// No eval-based fast paths: they trip the Content-Security-Policy in browsers.
z.config({ jitless: true });

const songId = z.string().regex(/^[1-9][0-9]{0,8}$/);

/** The deck's shape; readDeck checks its songs and design against the catalogue of the request. */
export const deckSchema = z.object({
  uid: z.string().uuid(),
  songs: z
    .array(songId)
    .max(MAX_TRACKS)
    .refine((ids) => new Set(ids).size === ids.length),
  design: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,39}$/)
    .nullable(),
  toggles: z.object(Object.fromEntries(TOGGLE_KEYS.map((k) => [k, z.boolean()])) as Record<ToggleKey, z.ZodBoolean>),
  // A deck stored before control characters were refused keeps its note, cleaned.
  note: z
    .string()
    .refine((note) => textLength(note) <= NOTE_MAX)
    .transform((note) => withoutControlCharacters(note, { newlines: true })),
  code: z.string().regex(ORDER_CODE_RE).nullable(),
  codename: z.string().regex(CODENAME_RE),
  coverNo: z.number().int().min(100).max(999),
  coverBg: z
    .number()
    .int()
    .min(0)
    .max(COVER_BACKGROUND_COUNT - 1),
}) satisfies z.ZodType<Deck>;

/** Retired songs and designs stay (the deck says so); one the catalogue never had makes a fresh deck. */
export function readDeck(value: unknown, uid: string, catalogue: Catalogue): Deck | null {
  const parsed = deckSchema.safeParse(value);
  if (!parsed.success || parsed.data.uid !== uid) return null;
  const deck = parsed.data;
  if (!deck.songs.every((id) => findSong(catalogue, id))) return null;
  if (deck.design !== null && !findDesign(catalogue, deck.design)) return null;
  return deck;
}

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PASSWORD_MIN = 8;
export const USERNAME_RE = /^[A-Za-z0-9_.-]{2,32}$/;

/** A NUL byte or a bell is never a typing slip, and the database refuses NUL. */
const typed = (schema: z.ZodString) => schema.refine((v) => !hasControlCharacter(v), AUTH_COPY.controlCharacters);
const required = typed(
  z.string({ error: AUTH_COPY.allRequired }).trim().min(1, AUTH_COPY.allRequired).max(320, AUTH_COPY.tooLong),
);

const typedPassword = typed(
  z.string({ error: AUTH_COPY.allRequired }).min(1, AUTH_COPY.allRequired).max(1024, AUTH_COPY.tooLong),
);

export const loginSchema = z.object({
  mode: z.literal("login"),
  email: required,
  password: typedPassword,
});

const anEmail = required.pipe(z.string().regex(EMAIL_RE, AUTH_COPY.invalidEmail));
const newPassword = typedPassword.pipe(z.string().min(PASSWORD_MIN, AUTH_COPY.passwordTooShort));

export const signupSchema = z.object({
  mode: z.literal("signup"),
  username: required.pipe(z.string().regex(USERNAME_RE, AUTH_COPY.usernameFormat)),
  email: anEmail,
  password: newPassword,
});

export const authSchema = z.discriminatedUnion("mode", [loginSchema, signupSchema]);

export const resendSchema = z.object({ identifier: required });

export const forgotSchema = z.object({ email: anEmail });

export const resetPasswordSchema = z.object({ password: newPassword });

export const changePasswordSchema = z.object({ currentPassword: typedPassword, newPassword });

export const changeEmailSchema = z.object({ newEmail: anEmail, currentPassword: typedPassword });

export const deleteAccountSchema = z.object({
  currentPassword: typedPassword,
  confirm: z
    .string({ error: OWN_ACCOUNT_COPY.typeDeleteError })
    .trim()
    .refine((v) => v === OWN_ACCOUNT_COPY.deleteWord, OWN_ACCOUNT_COPY.typeDeleteError),
});

export const CLOSED_MESSAGE_MAX = 200;

export const shopSettingsSchema = z.object({
  open: z.boolean().optional().default(false),
  closedMessage: z
    .string()
    .trim()
    .optional()
    .default("")
    .refine((v) => textLength(v) <= CLOSED_MESSAGE_MAX, CONSOLE_COPY.settings.messageTooLong(CLOSED_MESSAGE_MAX))
    .refine((v) => !hasControlCharacter(v), CONSOLE_COPY.settings.controlCharacters),
  maxOpenOrders: z
    .number({ error: CONSOLE_COPY.settings.maxInvalid })
    .int(CONSOLE_COPY.settings.maxInvalid)
    .min(0, CONSOLE_COPY.settings.maxInvalid)
    .max(100_000, CONSOLE_COPY.settings.maxInvalid)
    .nullable()
    .optional()
    .transform((v) => v ?? null),
});
