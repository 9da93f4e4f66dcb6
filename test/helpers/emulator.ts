import { createBot, emulator, emulatorUrl, newOrg } from "../../dev/in-workerd/bot.ts";

/**
 * A bot with its own emulator organization and Slack workspace, after one `/decipher`
 * command (by default, `#alerts` subscribing to test 101).
 */
export async function subscribedBot(command = "subscribe test 101", channelId = "C0ALERTS") {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey });
  await bot.command("/decipher", command, { channelId });
  return { bot, org: emulator.org(apiKey) };
}

/**
 * A bot whose `#alerts` watches `count` fresh tests of its own emulator organization, named
 * "Checkout step 1", … unless `names` says otherwise; `env` adds bindings.
 */
export async function channelWatching(
  count: number,
  options: { names?: (i: number) => string; env?: Record<string, string> } = {},
) {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey, ...(options.env ? { env: options.env } : {}) });
  const org = emulator.org(apiKey);
  const name = options.names ?? ((i: number) => `Checkout step ${i + 1}`);
  const tests: { id: number; name: string }[] = [];
  for (let i = 0; i < count; i++) tests.push(await org.addTest(name(i)));
  for (const test of tests) await bot.command("/decipher", `subscribe test ${test.id}`);
  return { bot, org, tests };
}

/** The emulator's path for a collection (its `shortenedPath`): what a test's `page:` overlaps. */
export async function collectionPath(apiKey: string, collectionId = 501): Promise<string> {
  const res = await fetch(
    `${emulatorUrl}/api/v1/monitoring/issue-collections/${collectionId}/sessions?limit=1`,
    {
      headers: { authorization: `Bearer ${apiKey}` },
    },
  );
  return ((await res.json()) as { collection: { shortenedPath: string } }).collection.shortenedPath;
}
