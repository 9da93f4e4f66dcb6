import { DurableObject } from "cloudflare:workers";

/** How long an Add to Slack page may wait for the person to approve. */
export const STATE_TTL_MS = 10 * 60 * 1000;

/**
 * The OAuth `state` values of Add to Slack already used (src/util/signed-state.ts signs them, so
 * handing one out writes nothing). One object holds them all, so "use once" is one
 * read-and-write by the single writer: two callbacks racing with the same state cannot both
 * pass, which KV (no compare-and-set, 60 s consistency) could not promise. Used nonces are
 * pruned by an alarm once their state has expired.
 */
export class InstallStateObject extends DurableObject {
  /** True the first time a verified state's nonce is used; false after that. */
  async useOnce(nonce: string, expiresAt: number): Promise<boolean> {
    if (!/^[0-9a-f]{32}$/.test(nonce)) return false;
    if ((await this.ctx.storage.get<number>(nonce)) !== undefined) return false;
    await this.ctx.storage.put(nonce, expiresAt);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(expiresAt);
    return true;
  }

  override async alarm(): Promise<void> {
    const now = Date.now();
    const all = await this.ctx.storage.list<number>();
    const expired = [...all].filter(([, at]) => at <= now).map(([key]) => key);
    for (let i = 0; i < expired.length; i += 128) await this.ctx.storage.delete(expired.slice(i, i + 128));
    if (all.size > expired.length) await this.ctx.storage.setAlarm(now + STATE_TTL_MS);
  }
}
