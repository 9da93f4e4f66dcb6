import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg } from "../../dev/in-workerd/bot.ts";
import worker from "../../src/index.ts";
import type { PollChunk } from "../../src/model/poll-chunk.ts";

describe("queue consumer", () => {
  it("polls the chunk it is handed, acks it, and is idempotent on redelivery", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    await bot.command("/decipher", "subscribe test 101");
    await emulator.org(apiKey).addRun(101, "failed");
    const chunk: PollChunk = {
      names: [`${await bot.team()}:C0ALERTS:test:101`],
      at: new Date().toISOString(),
    };

    for (const attempt of [1, 2]) {
      const batch = createMessageBatch<PollChunk>("decipher-slack-poll", [
        { id: `m${attempt}`, timestamp: new Date(), attempts: attempt, body: chunk },
      ]);
      const ctx = createExecutionContext();
      await worker.queue(batch, bot.env, ctx);
      const result = await getQueueResult(batch, ctx);
      expect(result.explicitAcks).toEqual([`m${attempt}`]);
      expect(result.retryMessages).toEqual([]);
    }
    expect(await bot.posted()).toHaveLength(1);
  });
});
