import { keys } from "./keys.ts";

/**
 * When the last poll cycle ran. Every cycle leaves it in the Cache API (free, but per
 * location); once an hour it also goes to KV (24 of the Free plan's 1,000 daily writes, where
 * every minute would cost 1,440), so `/decipher status` served anywhere knows of a poll
 * within the hour, and of the last minute's where the cron ran nearby.
 */
export type Heartbeat = { at: string; subscriptions: number; failed: number };

const CACHE_URL = "https://decipher-slack.internal/heartbeat";

export async function recordHeartbeat(
  heartbeat: Heartbeat,
  kv: KVNamespace,
  cache: Cache = caches.default,
): Promise<void> {
  const body = JSON.stringify(heartbeat);
  await cache
    .put(
      CACHE_URL,
      new Response(body, {
        headers: { "content-type": "application/json", "cache-control": "max-age=604800" },
      }),
    )
    .catch(() => {});
  if (new Date(heartbeat.at).getUTCMinutes() === 0) await kv.put(keys.heartbeat(), body);
}

function parse(text: string | null | undefined): Heartbeat | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Heartbeat;
    return typeof value.at === "string" ? value : null;
  } catch {
    return null;
  }
}

export async function readHeartbeat(
  kv: KVNamespace,
  cache: Cache = caches.default,
): Promise<Heartbeat | null> {
  const [cached, stored] = await Promise.all([
    cache
      .match(CACHE_URL)
      .then((hit) => hit?.text())
      .catch(() => null),
    kv.get(keys.heartbeat(), "text").catch(() => null),
  ]);
  const candidates = [parse(cached), parse(stored)].filter((h): h is Heartbeat => h !== null);
  return candidates.sort((a, b) => Date.parse(b.at) - Date.parse(a.at))[0] ?? null;
}
