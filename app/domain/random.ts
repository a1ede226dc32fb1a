// Randomness is injected so the domain stays pure: the server passes node:crypto's
// randomInt, tests pass a seeded or scripted source.
export type RandomInt = (maxExclusive: number) => number;
