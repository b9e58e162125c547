/** Small capabilities the domain needs from the outside world; infra/ implements them. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
