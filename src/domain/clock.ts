/** The time source every rule and use case reads, so tests can set it (docs/architecture.md). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
