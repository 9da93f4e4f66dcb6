import type { CycleReport } from "../../src/cron.ts";

/** The report in a line the cron's `cycleLogLine` wrote, or null for any other line. */
export function cycleReportOf(line: unknown): CycleReport | null {
  if (typeof line !== "string" || !/^(watchdog|poll everything): /.test(line)) return null;
  return JSON.parse(line.slice(line.indexOf("{"))) as CycleReport;
}
