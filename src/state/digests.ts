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

export type DigestIndex = Record<string, DigestSchedule>;

function isDigestIndex(value: unknown): value is DigestIndex {
  return (
    isRecord(value) &&
    Object.values(value).every(
      (s) => isRecord(s) && typeof s.time === "string" && typeof s.nextDueAt === "string",
    )
  );
}

/** All channels' digest schedules in one document: the cron reads one key per cycle. */
export class DigestStore {
  readonly #kv: KVNamespace;

  constructor(kv: KVNamespace) {
    this.#kv = kv;
  }

  async all(): Promise<DigestIndex> {
    return (await readJson(this.#kv, keys.digestIndex(), isDigestIndex)) ?? {};
  }

  async get(channelId: string): Promise<DigestSchedule | null> {
    return (await this.all())[channelId] ?? null;
  }

  async set(channelId: string, schedule: DigestSchedule | null): Promise<void> {
    const index = await this.all();
    if (schedule) index[channelId] = schedule;
    else delete index[channelId];
    await writeJson(this.#kv, keys.digestIndex(), index);
  }
}
