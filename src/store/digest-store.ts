import { keys } from "./keys.ts";
import { isRecord, readJson, writeJson } from "./kv-json.ts";

export type { DigestSchedule } from "../model/digest-schedule.ts";

import type { DigestSchedule } from "../model/digest-schedule.ts";

function isSchedule(value: unknown): value is DigestSchedule {
  return isRecord(value) && typeof value.time === "string" && typeof value.nextDueAt === "string";
}

/** Readable copies of the channels' digest schedules; each channel's object is the only writer. */
export class DigestStore {
  readonly #kv: KVNamespace;
  readonly #scope: string;

  /** `scope`: one team's keys (src/store/keys.ts); empty in single-workspace mode. */
  constructor(kv: KVNamespace, scope = "") {
    this.#kv = kv;
    this.#scope = scope;
  }

  get(channelId: string): Promise<DigestSchedule | null> {
    return readJson(this.#kv, keys.digest(channelId, this.#scope), isSchedule);
  }

  async writeCopy(channelId: string, schedule: DigestSchedule | null): Promise<void> {
    const current = await this.#kv.get(keys.digest(channelId, this.#scope), "text");
    if (schedule === null) {
      if (current !== null) await this.#kv.delete(keys.digest(channelId, this.#scope));
      return;
    }
    if (current !== JSON.stringify(schedule))
      await writeJson(this.#kv, keys.digest(channelId, this.#scope), schedule);
  }
}
