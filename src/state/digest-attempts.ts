/**
 * When a due digest first failed to go out, kept in the Cache API: retrying on a schedule
 * must cost no KV writes, and forgetting it (another location) only means one early retry.
 */
const base = "https://decipher-slack.internal/digest-failed";

const url = (channelId: string, dueAt: string) =>
  `${base}/${encodeURIComponent(channelId)}/${encodeURIComponent(dueAt)}`;

export async function firstDigestFailure(
  channelId: string,
  dueAt: string,
  cache: Cache = caches.default,
): Promise<Date | null> {
  const hit = await cache.match(url(channelId, dueAt)).catch(() => undefined);
  const at = hit ? Date.parse(await hit.text()) : Number.NaN;
  return Number.isFinite(at) ? new Date(at) : null;
}

export async function recordDigestFailure(
  channelId: string,
  dueAt: string,
  now: Date,
  cache: Cache = caches.default,
): Promise<void> {
  if (await firstDigestFailure(channelId, dueAt, cache)) return;
  await cache
    .put(
      url(channelId, dueAt),
      new Response(now.toISOString(), { headers: { "cache-control": "max-age=172800" } }),
    )
    .catch(() => {});
}
