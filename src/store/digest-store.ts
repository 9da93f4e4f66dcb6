import type { DigestSchedule } from "../model/digest-schedule.ts";
import { keys } from "./keys.ts";
import { isRecord } from "./kv-json.ts";
import { ScheduleCopies } from "./schedule-copies.ts";

export type { DigestSchedule } from "../model/digest-schedule.ts";

function isSchedule(value: unknown): value is DigestSchedule {
  return isRecord(value) && typeof value.time === "string" && typeof value.nextDueAt === "string";
}

/** The channels' digest schedules, as readable copies. */
export class DigestStore extends ScheduleCopies<DigestSchedule> {
  constructor(kv: KVNamespace, scope = "") {
    super(kv, scope, keys.digest, isSchedule);
  }
}
