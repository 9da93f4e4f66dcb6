import type { WeeklySchedule } from "../model/weekly-schedule.ts";
import { keys } from "./keys.ts";
import { isRecord } from "./kv-json.ts";
import { ScheduleCopies } from "./schedule-copies.ts";

function isWeekly(value: unknown): value is WeeklySchedule {
  return (
    isRecord(value) &&
    typeof value.day === "string" &&
    typeof value.time === "string" &&
    typeof value.nextDueAt === "string"
  );
}

/** The channels' weekly report schedules, as readable copies. */
export class WeeklyStore extends ScheduleCopies<WeeklySchedule> {
  constructor(kv: KVNamespace, scope = "") {
    super(kv, scope, keys.weekly, isWeekly);
  }
}
