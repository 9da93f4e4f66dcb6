/**
 * THE place that decides what the vendor's unit-less numbers mean (docs/decipher-api.md, "Units
 * and formats": session `duration`, page `startTime`/`endTime`, click `timestamp` and
 * loading-issue `timestamp` are UNKNOWN). Nothing else in the code guesses.
 *
 * Heuristic, for instants (page start/end, click and loading-issue timestamps):
 * - value > 1e11 → epoch **milliseconds** (1e11 ms is 1973; 1e11 s would be the year 5138);
 * - 1e9 ≤ value ≤ 1e11 → epoch **seconds** (2001…5138; 1e9 s into a session is 31 years);
 * - 0 ≤ value < 1e9 → **seconds into the session**.
 *
 * Heuristic, for the session `duration`:
 * - value > 86 400 → **milliseconds** (a recorded session longer than a day in seconds is
 *   implausible, while 86 400 ms is only 86 s);
 * - otherwise → **seconds**.
 *   Known blind spot: a session shorter than 86.4 s reported in milliseconds reads as
 *   seconds (e.g. 60 000 ms → "16 h 40 m"); nothing in one number can tell them apart.
 *
 * null, negative, NaN and infinite values are "unknown" and display as such.
 */

export const EPOCH_MS_THRESHOLD = 1e11;
export const EPOCH_SECONDS_THRESHOLD = 1e9;
export const DURATION_MS_THRESHOLD = 86_400;

export type Instant =
  | { kind: "epoch"; ms: number }
  | { kind: "offset"; seconds: number }
  | { kind: "unknown" };

const isUsable = (value: number | null | undefined): value is number =>
  typeof value === "number" && Number.isFinite(value) && value >= 0;

/** Classifies a vendor timestamp by the heuristic above. */
export function classifyInstant(value: number | null | undefined): Instant {
  if (!isUsable(value)) return { kind: "unknown" };
  if (value > EPOCH_MS_THRESHOLD) return { kind: "epoch", ms: value };
  if (value >= EPOCH_SECONDS_THRESHOLD) return { kind: "epoch", ms: value * 1000 };
  return { kind: "offset", seconds: value };
}

export type DurationUnit = "s" | "ms";

/**
 * The vendor uses one unit for every session, so a page of them can settle what one number
 * cannot: if any duration is above the threshold, they are all milliseconds (a 60 000 next
 * to a 250 000 is a minute, not 16 hours). Undefined when the page does not tell.
 */
export function inferDurationUnit(
  durations: readonly (number | null | undefined)[],
): DurationUnit | undefined {
  return durations.some((d) => isUsable(d) && d > DURATION_MS_THRESHOLD) ? "ms" : undefined;
}

/** Session `duration` in seconds (by `unit` when known, else the heuristic above), or null when unknown. */
export function sessionDurationSeconds(
  duration: number | null | undefined,
  unit?: DurationUnit,
): number | null {
  if (!isUsable(duration)) return null;
  if (unit === "ms") return duration / 1000;
  if (unit === "s") return duration;
  return duration > DURATION_MS_THRESHOLD ? duration / 1000 : duration;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** "45 s", "2 m 05 s", "1 h 02 m": compact, and stable in width for scanning a list. */
function formatSeconds(total: number): string {
  const seconds = Math.round(total);
  if (seconds < 60) return `${seconds} s`;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h === 0) return `${m} m ${pad(s)} s`;
  if (h < 24) return `${h} h ${pad(m)} m`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** A session's length ("12 m 03 s") or "unknown". */
export function formatSessionDuration(duration: number | null | undefined, unit?: DurationUnit): string {
  const seconds = sessionDurationSeconds(duration, unit);
  return seconds === null ? "unknown" : formatSeconds(seconds);
}

/** A test run's `durationMs` ("2 m 05 s", "850 ms") or "—". */
export function formatDurationMs(ms: number | null | undefined): string {
  if (!isUsable(ms)) return "—";
  return ms < 1000 ? `${Math.round(ms)} ms` : formatSeconds(ms / 1000);
}

/** "1:23" or "1:02:03" for a position in a session. */
function clock(totalSeconds: number): string {
  const seconds = Math.floor(totalSeconds);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

const DAY_MS = 86_400_000;

/**
 * Where in a session something happened: "at 1:23" (into the session). An epoch value is
 * turned into an offset when the session start is known and it falls within a day of it;
 * otherwise it is shown as a UTC clock time ("at 14:05:09 UTC"). Unknown → "at an unknown time".
 */
export function formatOffset(value: number | null | undefined, sessionStart?: Date | string | null): string {
  const moment = sessionMoment(value, sessionStart);
  return moment.kind === "into" ? `at ${moment.clock}` : moment.text;
}

/**
 * The same moment where "at 1:23" alone would read as a time of day: "1:23 into the session";
 * a UTC clock time or an unknown one reads as `formatOffset` has it.
 */
export function formatIntoSession(
  value: number | null | undefined,
  sessionStart?: Date | string | null,
): string {
  const moment = sessionMoment(value, sessionStart);
  return moment.kind === "into" ? `${moment.clock} into the session` : moment.text;
}

/** A moment of a session: a position into it ("1:23"), or else its words ("at 14:05:09 UTC"). */
function sessionMoment(
  value: number | null | undefined,
  sessionStart: Date | string | null | undefined,
): { kind: "into"; clock: string } | { kind: "other"; text: string } {
  const instant = classifyInstant(value);
  if (instant.kind === "unknown") return { kind: "other", text: "at an unknown time" };
  if (instant.kind === "offset") return { kind: "into", clock: clock(instant.seconds) };
  const start = sessionStart ? new Date(sessionStart).getTime() : Number.NaN;
  const into = instant.ms - start;
  if (Number.isFinite(into) && into >= 0 && into < DAY_MS) return { kind: "into", clock: clock(into / 1000) };
  const date = new Date(instant.ms);
  if (!Number.isFinite(date.getTime())) return { kind: "other", text: "at an unknown time" };
  return { kind: "other", text: `at ${date.toISOString().slice(11, 19)} UTC` };
}
