import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../src/index.ts";

describe("GET /health", () => {
  it("answers ok with the package version when configured", async () => {
    const res = await exports.default.fetch("http://bot.test/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      ok: true,
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      failingSubscriptions: 0,
    });
  });

  it("names a missing secret without echoing any configured value", async () => {
    const res = await worker.fetch(
      new Request("http://bot.test/health"),
      { ...env, SLACK_SIGNING_SECRET: "" },
      {} as ExecutionContext,
    );
    const body = await res.text();
    expect(JSON.parse(body)).toMatchObject({
      ok: false,
      problems: [expect.stringContaining("SLACK_SIGNING_SECRET")],
    });
    for (const secret of [env.DECIPHER_API_KEY, env.SLACK_BOT_TOKEN])
      expect(body).not.toContain(String(secret));
  });

  it("reports an unreachable engine registry as a problem, not a 500", async () => {
    const res = await worker.fetch(
      new Request("http://bot.test/health"),
      { ...env, REGISTRY: undefined } as never,
      {} as ExecutionContext,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: false, problems: [expect.stringContaining("registry")] });
  });
});
