import { code, plural } from "../../messages/mrkdwn.ts";
import type { TestSubscription } from "../../model/subscription.ts";

/** Triggers named in the note at most: a test run by many pipelines still gets a short line. */
const TRIGGERS_SHOWN = 6;

/**
 * `trigger:scheduled` on a test whose runs say `schedule`: no run would ever alert. Checked
 * against the runs subscribing read (its latest page), and said under the reply with the
 * triggers those runs had; none is said when no run was read.
 */
export function triggerNotes(fresh: TestSubscription): string[] {
  const trigger = fresh.options?.trigger;
  const runs = fresh.baselineRuns ?? [];
  if (!trigger || runs.length === 0) return [];
  const seen = [...new Set(runs.map((r) => r.triggeredBy).filter(Boolean))];
  if (seen.includes(trigger)) return [];
  const theirs =
    seen.length > 0 ? `; its triggers are ${seen.slice(0, TRIGGERS_SHOWN).map(code).join(", ")}` : "";
  return [
    `:warning: No run of test ${fresh.testId} in the last ${plural(runs.length, "run")} had trigger ${code(trigger)}${theirs}. Alerts wait for a run with that trigger: to change it, \`/decipher subscribe test ${fresh.testId} trigger:…\`, or \`trigger:default\` for any.`,
  ];
}
