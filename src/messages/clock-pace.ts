import { DAY_SHARE, FULL_SPEED, type Governed } from "../model/plan-governor.ts";

/**
 * What status, Home and `/health` say of the clock's pace (src/model/plan-governor.ts): nothing
 * at full speed; the slower pace and why when the governor stretched it; and, when even the
 * slowest pace would run a daily limit out, that and what to do.
 */

const MINUTE = 60_000;

/** "every minute", "every 4 minutes", "every 10 seconds". */
export const every = (ms: number) =>
  ms % MINUTE === 0
    ? ms === MINUTE
      ? "every minute"
      : `every ${ms / MINUTE} minutes`
    : `every ${ms / 1000} seconds`;

/**
 * What status, Home and `/health` say when the governor stretched the clock; null at full speed.
 * "polling every 4 minutes to stay within the Free plan".
 */
export function paceLine(governed: Governed): string | null {
  if (!governed.stretched) return null;
  const { pace } = governed;
  if (pace.idleMs === FULL_SPEED.idleMs)
    return `polling running tests ${every(pace.runningMs)}, not ${every(FULL_SPEED.runningMs)}, to stay within ${governed.plan}`;
  return `polling ${every(pace.idleMs)} to stay within ${governed.plan}`;
}

/** A day over DAY_SHARE of a limit even at the slowest pace: said as a problem, with what to do. */
export function overLine(governed: Governed): string | null {
  const { tightest, pace } = governed;
  if (!tightest || tightest.share <= DAY_SHARE) return null;
  return `even polling ${every(pace.idleMs)}, a day would use ${Math.round(tightest.share * 100)} % of the daily ${tightest.name} on ${governed.plan}: set PLAN=paid on Workers Paid, or watch fewer tests`;
}

/** The clock's pace as `/health` shows it: figures, and the sentence when it is stretched. */
export function clockFigures(governed: Governed) {
  const line = paceLine(governed);
  return {
    idlePollSeconds: governed.pace.idleMs / 1000,
    runningPollSeconds: governed.pace.runningMs / 1000,
    plan: governed.plan,
    ...(governed.tightest
      ? { tightestLimit: governed.tightest.name, dayUsePercent: Math.round(governed.tightest.share * 100) }
      : {}),
    ...(line ? { stretched: line } : {}),
  };
}

/** The status page's sentence about the clock, and a warning when even the slowest pace is too much. */
export function clockNote(governed: Governed | null): {
  note: string;
  stretched: boolean;
  warning: string | null;
} {
  const line = governed && paceLine(governed);
  const note = line
    ? `The clock is ${line}: at full speed the plan's daily limits would run out before 00:00 UTC, and every poll would stop until then.`
    : "Each subscription is polled every minute, and every 10 s while one of its runs is running.";
  const over = governed && overLine(governed);
  return { note, stretched: Boolean(line), warning: over ? `:rotating_light: The clock: ${over}.` : null };
}

/** Home's line about the clock: only when it is slower than full speed (null otherwise). */
export function homeClockLine(governed: Governed | null): string | null {
  const over = governed && overLine(governed);
  if (over) return `:rotating_light: Alerts come late: ${over}.`;
  const line = governed && paceLine(governed);
  return line ? `:hourglass_flowing_sand: Alerts may come later than usual: the bot is ${line}.` : null;
}
