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

  constructor(kv: KVNamespace) {
    this.#kv = kv;
  }

  get(channelId: string): Promise<DigestSchedule | null> {
    return readJson(this.#kv, keys.digest(channelId), isSchedule);
  }

  async writeCopy(channelId: string, schedule: DigestSchedule | null): Promise<void> {
    const current = await this.#kv.get(keys.digest(channelId), "text");
    if (schedule === null) {
      if (current !== null) await this.#kv.delete(keys.digest(channelId));
      return;
    }
    if (current !== JSON.stringify(schedule)) await writeJson(this.#kv, keys.digest(channelId), schedule);
  }
}
