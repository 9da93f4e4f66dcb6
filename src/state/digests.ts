import { KeyList } from "./key-list.ts";
import { keys } from "./keys.ts";
import { isRecord, readJson, writeJson } from "./kv-json.ts";

export type DigestSchedule = {
  /** Local wall-clock time, `HH:MM`. */
  time: string;
  /** IANA zone, e.g. `Europe/Berlin`. */
  zone: string;
  /** The next instant a digest is owed (ISO). */
  nextDueAt: string;
  lastSentAt: string | null;
  /** Session counts at the last digest, to show change since then. */
  collectionCounts: Record<string, number>;
};

function isSchedule(value: unknown): value is DigestSchedule {
  return isRecord(value) && typeof value.time === "string" && typeof value.nextDueAt === "string";
}

/**
 * One key per channel's schedule, and a list of the channels that have one. Only
 * `/decipher digest` edits the list; the cron writes nothing but the schedule of the channel
 * it just sent a digest to, so two cycles (or a cycle and a command) never overwrite each
 * other's channels.
 */
export class DigestStore {
  readonly #kv: KVNamespace;
  readonly #channels: KeyList;

  constructor(kv: KVNamespace) {
    this.#kv = kv;
    this.#channels = new KeyList(kv, keys.digestIndex());
  }

  async all(): Promise<Record<string, DigestSchedule>> {
    const channels = await this.#channels.read();
    const schedules = await Promise.all(channels.map((channelId) => this.get(channelId)));
    return Object.fromEntries(
      channels.flatMap((channelId, i) => (schedules[i] ? [[channelId, schedules[i] as DigestSchedule]] : [])),
    );
  }

  get(channelId: string): Promise<DigestSchedule | null> {
    return readJson(this.#kv, keys.digest(channelId), isSchedule);
  }

  /** `/decipher digest …`: sets or clears a channel's schedule. */
  async set(channelId: string, schedule: DigestSchedule | null): Promise<void> {
    if (schedule) {
      await writeJson(this.#kv, keys.digest(channelId), schedule);
      await this.#channels.add(channelId);
    } else {
      await this.#channels.remove(channelId);
      await this.#kv.delete(keys.digest(channelId));
    }
  }

  /** The cron, after a digest: moves that channel's schedule on, touching nothing else. */
  async advance(channelId: string, schedule: DigestSchedule): Promise<void> {
    await writeJson(this.#kv, keys.digest(channelId), schedule);
  }
}
