// Injected so the domain stays pure and tests can pass a seeded source.
export type RandomInt = (maxExclusive: number) => number;
