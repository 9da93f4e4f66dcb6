import { CommandInputError } from "../../model/command-input-error.ts";

const RELATIVE = /^(\d{1,4})(m|h|d|w)$/i;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** `7d`, `24h`, `30m`, `2w` (that long before `now`) or an ISO 8601 date/time (UTC when no zone is given). */
export function parseTimeBound(name: string, text: string, now: Date): Date {
  const relative = RELATIVE.exec(text);
  if (relative) {
    const unit = (relative[2] as string).toLowerCase() as keyof typeof UNIT_MS;
    return new Date(now.getTime() - Number(relative[1]) * UNIT_MS[unit]);
  }
  if (ISO_DATE.test(text)) {
    const hasZone = /Z|[+-]\d{2}:?\d{2}$/.test(text.slice(10));
    const date = new Date(hasZone || text.length === 10 ? text : `${text.replace(" ", "T")}Z`);
    if (!Number.isNaN(date.getTime())) return date;
  }
  throw new CommandInputError(
    `\`${name}:${text}\` is not a time I can read. Use a span like \`24h\`, \`7d\`, \`2w\` or a date like \`2026-11-01\`.`,
  );
}
