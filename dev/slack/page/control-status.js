// The line beside Poll now / Digest now: what a control is doing, then what it did. A finished
// action's line fades after a while, so an old "polled at …" never reads as news.

/** How long a finished action's line stays (ms). */
export const DONE_STATUS_MS = 15_000;

/**
 * @param {{ kind: "polling" } | { kind: "polled", at: Date } | { kind: "digest-waiting", hhmm: string, secs: number }
 *   | { kind: "digest-polled", hhmm: string, at: Date } | { kind: "failed", what: string, error: string }} event
 * @returns {{ text: string, fadeMs: number | null }}
 */
export function controlStatus(event) {
  const time = (/** @type {Date} */ at) => at.toLocaleTimeString();
  switch (event.kind) {
    case "polling":
      return { text: "Polling…", fadeMs: null };
    case "polled":
      return { text: `Polled every subscription at ${time(event.at)}`, fadeMs: DONE_STATUS_MS };
    case "digest-waiting":
      return { text: `Digest set for ${event.hhmm} UTC daily — arriving in ~${event.secs} s`, fadeMs: null };
    case "digest-polled":
      return {
        text: `Polled for the ${event.hhmm} UTC digest at ${time(event.at)}: it is posted in this channel (again daily at ${event.hhmm} UTC)`,
        fadeMs: DONE_STATUS_MS,
      };
    case "failed":
      return { text: `${event.what} failed: ${event.error}`, fadeMs: null };
  }
}
