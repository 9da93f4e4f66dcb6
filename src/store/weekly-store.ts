import type { WeeklySchedule } from "../model/weekly-schedule.ts";
import { keys } from "./keys.ts";
import { isRecord, readJson, writeJson } from "./kv-json.ts";

function isWeekly(value: unknown): value is WeeklySchedule {
  return (
    isRecord(value) &&
    typeof value.day === "string" &&
    typeof value.time === "string" &&
    typeof value.nextDueAt === "string"
  );
}

/** Readable copies of the channels' weekly report schedules; each channel's object is the only writer. */
export class WeeklyStore {
  readonly #kv: KVNamespace;
  readonly #scope: string;

  /** `scope`: one team's keys (src/store/keys.ts); empty in single-workspace mode. */
  constructor(kv: KVNamespace, scope = "") {
    this.#kv = kv;
    this.#scope = scope;
  }

  get(channelId: string): Promise<WeeklySchedule | null> {
    return readJson(this.#kv, keys.weekly(channelId, this.#scope), isWeekly);
  }

  /** Written only when it changed: a report going out writes the copy once a week. */
  async writeCopy(channelId: string, schedule: WeeklySchedule | null): Promise<void> {
    const current = await this.#kv.get(keys.weekly(channelId, this.#scope), "text");
    if (schedule === null) {
      if (current !== null) await this.#kv.delete(keys.weekly(channelId, this.#scope));
      return;
    }
    if (current !== JSON.stringify(schedule))
      await writeJson(this.#kv, keys.weekly(channelId, this.#scope), schedule);
  }
}
