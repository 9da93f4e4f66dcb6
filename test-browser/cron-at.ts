// Runs the bot's cron as if at a given time, so the browser test and the screenshots need
// not wait for a digest's minute: Miniflare's scheduled trigger takes the time (`wrangler dev`'s
// own `/__scheduled` does not).

/** `HH:MM` of an instant in a zone. */
export const clock = (at: Date, zone: string) =>
  new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(at);

/** The start of the minute two minutes from now: a time a schedule set now is due at. */
export const twoMinutesAhead = () => new Date(Math.floor(Date.now() / 60_000) * 60_000 + 2 * 60_000);

export async function cronAt(botUrl: string, at: Date): Promise<void> {
  const url = new URL("/cdn-cgi/local/scheduled", botUrl);
  url.search = new URLSearchParams({ cron: "* * * * *", time: String(at.getTime()) }).toString();
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`scheduled trigger answered ${res.status}: ${await res.text()}`);
}
