import { DurableObject } from "cloudflare:workers";

/** How long an Add to Slack page may wait for the person to approve. */
export const STATE_TTL_MS = 10 * 60 * 1000;

/**
 * The OAuth `state` values handed out by /slack/install (slack-edge's StateStore). One object
 * holds them all, so "use once" is one read-and-delete by the single writer: two callbacks
 * racing with the same state cannot both pass, which KV (no compare-and-delete, 60 s
 * consistency) could not promise. Expired values are pruned by an alarm.
 */
export class InstallStateObject extends DurableObject {
  async issue(now: number = Date.now()): Promise<string> {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    const state = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    await this.ctx.storage.put(state, now + STATE_TTL_MS);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(now + STATE_TTL_MS);
    return state;
  }

  /** True once for a state this object issued and that has not expired; false for anything else. */
  async consume(state: string, now: number = Date.now()): Promise<boolean> {
    if (!/^[0-9a-f]{48}$/.test(state)) return false;
    const expiresAt = await this.ctx.storage.get<number>(state);
    if (expiresAt === undefined) return false;
    await this.ctx.storage.delete(state);
    return expiresAt > now;
  }

  override async alarm(): Promise<void> {
    const now = Date.now();
    const all = await this.ctx.storage.list<number>();
    const expired = [...all].filter(([, at]) => at <= now).map(([key]) => key);
    for (let i = 0; i < expired.length; i += 128) await this.ctx.storage.delete(expired.slice(i, i + 128));
    if (all.size > expired.length) await this.ctx.storage.setAlarm(now + STATE_TTL_MS);
  }
}
