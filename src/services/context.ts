import type { Plan } from '../domain/plans.ts';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Who is asking: services apply plan rules (data window, gates) from this. */
export interface Viewer {
  plan: Plan;
  userId: string | null;
}

export const anonymousViewer: Viewer = { plan: 'anonymous', userId: null };
