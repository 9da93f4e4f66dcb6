// Slack message timestamps: "<unix seconds>.<6 digits>", unique and increasing. One clock is
// shared by every workspace so a ts never repeats anywhere in the stand-in.

export type TsClock = { next(): string };

export function createTsClock(now: () => number = Date.now): TsClock {
  let lastMicros = 0;
  return {
    next() {
      // Step by 100 µs when calls come faster than the wall clock, like Slack's own suffixes.
      lastMicros = Math.max(now() * 1000, lastMicros + 100);
      const micros = Math.floor(lastMicros);
      return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, "0")}`;
    },
  };
}

export const TS_PATTERN = /^\d{10}\.\d{6}$/;
