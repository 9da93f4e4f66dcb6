/**
 * What sending a scheduled report (the daily digest, the weekly report) came to: sent, and
 * when the next is due; to be retried (Slack or Decipher failed); skipped with its reason;
 * or, with more to read than one invocation's budget allows, what it read so far (`reads`),
 * kept for the next call.
 */
export type ReportOutcome<Schedule, Reads> =
  | { kind: "sent"; next: Schedule }
  | { kind: "retry"; error: string }
  | { kind: "skipped"; next: Schedule; error: string }
  | { kind: "reading"; reads: Reads };
