import type { RandomInt } from "./random";

const ADJECTIVES = [
  "NEON",
  "STATIC",
  "MIDNIGHT",
  "ROGUE",
  "SILENT",
  "ELECTRIC",
  "VELVET",
  "CHROME",
  "PIRATE",
  "FERAL",
  "HOLLOW",
  "SOLAR",
  "CRIMSON",
  "ANALOG",
  "PHANTOM",
  "ACID",
] as const;
const NOUNS = [
  "SIGNAL",
  "RUNNER",
  "CIPHER",
  "ORACLE",
  "VANDAL",
  "ECHO",
  "WOLF",
  "FALCON",
  "PROPHET",
  "COMET",
  "RAVEN",
  "NOMAD",
  "GLITCH",
  "MONK",
  "SPECTRE",
  "ENGINE",
] as const;

/** A cover codename such as "NEON CIPHER". */
export function generateCodename(randomInt: RandomInt): string {
  return `${ADJECTIVES[randomInt(ADJECTIVES.length)]} ${NOUNS[randomInt(NOUNS.length)]}`;
}

export const CODENAME_RE = /^[A-Z]{2,12} [A-Z]{2,12}$/;

/** Cover number: 100 to 999 inclusive. */
export const generateCoverNumber = (randomInt: RandomInt): number => 100 + randomInt(900);
