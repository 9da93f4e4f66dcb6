/**
 * When the last poll cycle ran. Kept in the Cache API, not KV: writing it to KV every minute
 * would cost 1,440 of the Free plan's 1,000 daily writes, and losing it costs only a status line.
 */
export type Heartbeat = { at: string; subscriptions: number; failed: number };

const URL_BASE = "https://decipher-slack.internal/heartbeat";

export async function recordHeartbeat(heartbeat: Heartbeat, cache: Cache = caches.default): Promise<void> {
  await cache.put(
    URL_BASE,
    new Response(JSON.stringify(heartbeat), {
      headers: { "content-type": "application/json", "cache-control": "max-age=604800" },
    }),
  );
}

export async function readHeartbeat(cache: Cache = caches.default): Promise<Heartbeat | null> {
  const hit = await cache.match(URL_BASE);
  if (!hit) return null;
  try {
    return (await hit.json()) as Heartbeat;
  } catch {
    return null;
  }
}
