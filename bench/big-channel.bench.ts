import { env } from "cloudflare:test";
import { inject, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage, standIn } from "../dev/in-workerd/bot.ts";
import { readConfig } from "../src/config.ts";
import { homeView, listMessage } from "../src/kinds/messages.ts";
import * as ACTION_IDS from "../src/messages/action-ids.ts";
import { indexEntry } from "../src/model/channel-index.ts";
import { objectControl } from "../src/objects/object-control.ts";
import { DigestStore } from "../src/store/digest-store.ts";
import { SubscriptionStore } from "../src/store/subscription-store.ts";
import { WeeklyStore } from "../src/store/weekly-store.ts";
import { mapLimit } from "../src/util/map-limit.ts";

/**
 * `/decipher list`, `status` and the App Home of one channel with many subscriptions (`npm run
 * bench:big-channel`, through bench/big-channel.ts). Two measurements:
 * - the read path, before and after, interleaved round by round on the same channel: before
 *   reads every subscription's KV copy (what the handlers did: the KV index, then one `get`
 *   each, plus the digest and weekly copies for list); after asks the channel's ChannelObject
 *   once. Both render the same first page. KV reads are counted by the bot's counting KV,
 *   Durable Object calls by wrapping the channel namespace;
 * - the commands end to end, after: the ack of `/decipher list` and `status` (signed request in,
 *   message out), every page through More, and a Home open (`views.publish` included).
 * Prints one `BENCH_JSON` line for bench/big-channel.ts.
 */

const SIZE = ((inject as (key: string) => unknown)("bigChannelSize") as number | undefined) ?? 200;
const ROUNDS = ((inject as (key: string) => unknown)("bigChannelRounds") as number | undefined) ?? 15;
const CHANNEL = "C0ALERTS";

let channelCalls = 0;
function countedChannels(ns: DurableObjectNamespace): DurableObjectNamespace {
  return {
    idFromName: (name: string) => ns.idFromName(name),
    get: (id: DurableObjectId) => {
      const stub = ns.get(id);
      return new Proxy(stub, {
        get(target, prop) {
          const value = Reflect.get(target, prop);
          if (typeof prop !== "string" || prop === "then" || typeof value !== "function") return value;
          return (...args: unknown[]) => {
            channelCalls++;
            return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
          };
        },
      });
    },
  } as unknown as DurableObjectNamespace;
}

type Sample = { ms: number; kvReads: number; doCalls: number; shown: number };

/** The tests a message or view links to (list, status and Home all link each test it shows). */
const testIdsIn = (blocks: unknown) =>
  new Set([...JSON.stringify(blocks).matchAll(/\/tests\/(\d+)\|/g)].map((m) => Number(m[1])));

it(`list, status and Home of one channel with ${SIZE} subscriptions`, async () => {
  const apiKey = await newOrg();
  const org = emulator.org(apiKey);
  const bot = createBot({ apiKey });
  const teamId = await bot.team();
  const tests = await mapLimit(
    Array.from({ length: SIZE }, (_, i) => i),
    4,
    (i) => org.addTest(`Checkout, payment and the confirmation e-mail in every browser, part ${i + 1}`),
  );
  const setupStart = Date.now();
  await mapLimit(tests, 4, async (t) => {
    const res = await bot.command("/decipher", `subscribe test ${t.id}`, { channelId: CHANNEL });
    if (res.status !== 200) throw new Error(`subscribe ${t.id} answered ${res.status}`);
  });
  const setupMs = Date.now() - setupStart;

  const kv = bot.env.STATE as KVNamespace;
  const config = readConfig(bot.env as never);
  const control = objectControl({ ...bot.env, CHANNELS: countedChannels(env.CHANNELS) } as never, config);
  const appUrl = config.decipherAppUrl;

  const measure = async (work: () => Promise<number>): Promise<Sample> => {
    const reads = bot.kv.reads;
    channelCalls = 0;
    const start = Date.now();
    const shown = await work();
    return { ms: Date.now() - start, kvReads: bot.kv.reads - reads, doCalls: channelCalls, shown };
  };
  const before = async () => {
    const subs = await new SubscriptionStore(kv).listForChannel(CHANNEL);
    const digest = await new DigestStore(kv).get(CHANNEL);
    const weekly = await new WeeklyStore(kv).get(CHANNEL);
    const now = new Date();
    const page = listMessage(
      subs.map((s) => indexEntry(s, now)),
      digest,
      appUrl,
      now,
      weekly,
    );
    return testIdsIn(page.blocks).size;
  };
  const after = async () => {
    const index = await control.channelIndex(teamId, CHANNEL, new Date());
    const page = listMessage(index.entries, index.digest, appUrl, new Date(), index.weekly);
    return testIdsIn(page.blocks).size;
  };
  const homeBefore = async () => {
    const keys = await new SubscriptionStore(kv).listKeys();
    const subs = await mapLimit(keys.slice(0, 300), 6, (k) => new SubscriptionStore(kv).getByKey(k));
    const view = homeView({ subscriptions: subs.filter((s) => s !== null), appUrl, teamUrl: null });
    return testIdsIn(view.blocks).size;
  };
  const homeAfter = async () => {
    const keys = await new SubscriptionStore(kv).listKeys();
    const channels = [...new Set(keys.map((k) => k.split(":")[1] as string))];
    const indexes = await mapLimit(channels, 6, (c) => control.channelIndex(teamId, c, new Date()));
    const view = homeView({
      subscriptions: indexes.flatMap((i) => i.entries.map((e) => e.subscription)),
      appUrl,
      teamUrl: null,
    });
    return testIdsIn(view.blocks).size;
  };

  // The channel's first read after an upgrade fills the index from the KV copies, once.
  const firstRead = await measure(after);
  const rounds: { before: Sample; after: Sample; homeBefore: Sample; homeAfter: Sample }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // Interleaved, and the order alternates, so drift and warm caches favour neither.
    const pair =
      r % 2 === 0
        ? { before: await measure(before), after: await measure(after) }
        : { after: await measure(after), before: await measure(before) };
    const home =
      r % 2 === 0
        ? { homeBefore: await measure(homeBefore), homeAfter: await measure(homeAfter) }
        : { homeAfter: await measure(homeAfter), homeBefore: await measure(homeBefore) };
    rounds.push({ ...pair, ...home });
  }

  // End to end, after: the acks, every page through More, the Home.
  const commands: Record<string, { ackMs: number[]; pages: number; shown: number; clickMs: number[] }> = {};
  for (const what of ["list", "status"] as const) {
    const ackMs: number[] = [];
    let first: StoredMessage | null = null;
    for (let r = 0; r < 5; r++) {
      const start = Date.now();
      const res = await bot.command("/decipher", what, { channelId: CHANNEL });
      ackMs.push(Date.now() - start);
      first = { ...JSON.parse(res.body), ts: "1700000000.000100", ephemeral: true, channel: CHANNEL };
    }
    const pages = [first as StoredMessage];
    const clickMs: number[] = [];
    for (;;) {
      const last = pages.at(-1) as StoredMessage;
      if (!JSON.stringify(last.blocks).includes(`"action_id":"${ACTION_IDS.channelMore}"`)) break;
      const start = Date.now();
      await bot.click(last, ACTION_IDS.channelMore);
      clickMs.push(Date.now() - start);
      pages.push((await bot.messages(CHANNEL)).at(-1) as StoredMessage);
    }
    const shown = new Set(pages.flatMap((p) => [...testIdsIn(p.blocks)]));
    commands[what] = { ackMs, pages: pages.length, shown: shown.size, clickMs };
  }
  // Home opens, the first of each person publishes (later ones find the same view and skip it).
  const homeMs: number[] = [];
  for (let r = 0; r < 6; r++) {
    const { events } = await standIn.call<{ events: unknown[] }>("POST", "/home-opened", {
      botToken: bot.botToken,
      userId: r % 2 === 0 ? "U0ALICE" : "U0BOB",
      deliver: false,
    });
    const start = Date.now();
    await bot.signedPost(JSON.stringify(events[0]), "application/json");
    homeMs.push(Date.now() - start);
  }
  const view = await standIn.views(bot.botToken, "U0ALICE");
  const homeShown = testIdsIn(view.home?.blocks ?? []).size;

  console.log(
    `BENCH_JSON ${JSON.stringify({ kind: "big-channel", size: SIZE, rounds, firstRead, setupMs, commands, homeMs, homeShown })}`,
  );
}, 900_000);
