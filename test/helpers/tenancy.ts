import { env, listDurableObjectIds, runInDurableObject } from "cloudflare:test";
import { type Bot, emulator, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { forgetTeam } from "../../src/objects/tenancy.ts";
import { eventsOf } from "./events.ts";
import { installedWithKey, workspaceOf } from "./installs.ts";

/**
 * Three installed workspaces (multi-workspace mode), each with its own Decipher organization,
 * a bot admin (Alice, the installer) and a member who is not one (Bob). Acme and Globex share
 * #alerts (Slack Connect: the same channel id in both); Initech is on its own. Each admin has
 * subscribed #alerts to a test only its organization has, and a failure of it was alerted.
 */
export type Tenant = Awaited<ReturnType<typeof tenant>>;

async function tenant(label: string, template: "acme" | "globex", name: string, email: string) {
  const { bot, apiKey } = await installedWithKey(template);
  // Its own in each test: a name found in storage is this test's workspace's, never an earlier one's.
  const testName = `${name} ${crypto.randomUUID().slice(0, 8)}`;
  const org = emulator.org(apiKey);
  const team = await bot.team();
  const { id: testId } = await org.addTest(testName);
  await workspaceOf(team).setAdmins(["U0ALICE"]);
  // The Worker keeps a team's credentials a few seconds (src/objects/tenancy.ts); the admins
  // were written past it, as the Connect Decipher form's save would drop them.
  forgetTeam(team);
  await bot.command("/decipher", `subscribe test ${testId}`);
  await org.addRun(testId, "failed");
  return { label, bot, apiKey, org, team, testId, testName, email, events: eventsOf(bot) };
}

export async function threeWorkspaces() {
  const acme = await tenant("Acme", "acme", "Acme checkout tenancy", "jane@acme.com");
  const globex = await tenant("Globex", "globex", "Globex onboarding tenancy", "hank@globex.com");
  const initech = await tenant("Initech", "acme", "Initech payroll tenancy", "jane@acme.com");
  await acme.bot.shareChannel("C0ALERTS");
  await globex.bot.shareChannel("C0ALERTS");
  await acme.bot.cron();
  return { acme, globex, initech, all: [acme, globex, initech] as const };
}

/** The workspace's alert in #alerts (its bot's one top-level post there). */
export async function alertOf(t: Tenant): Promise<StoredMessage> {
  const alert = (await t.bot.posted()).find((m) => !m.thread_ts && visibleText(m).includes(t.testName));
  if (!alert) throw new Error(`${t.label} posted no alert`);
  return alert;
}

/** What the person sees from the bot in #alerts only to them (ephemeral replies), oldest first. */
export async function seenBy(bot: Bot, userId: string, channelId = "C0ALERTS"): Promise<string[]> {
  return (await bot.messages(channelId))
    .filter((m) => m.ephemeral && m.visible_to === userId)
    .map(visibleText);
}

const NAMESPACES = [
  "SUBSCRIPTIONS",
  "CHANNELS",
  "REGISTRY",
  "SLACK_EVENT_GATE",
  "WORKSPACES",
  "INSTALL_STATES",
] as const;

/** Everything one Durable Object keeps: its key-value entries and every row of its SQL tables. */
export function storageOf(stub: DurableObjectStub): Promise<string[]> {
  return runInDurableObject(stub, async (_instance, state) => {
    const entries = [...(await state.storage.list()).entries()].map(([k, v]) => `${k}=${JSON.stringify(v)}`);
    const tables = state.storage.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'",
      )
      .toArray()
      .map((t) => t.name);
    const rows = tables.flatMap((t) =>
      state.storage.sql
        .exec(`SELECT * FROM "${t}"`)
        .toArray()
        .map((r) => `${t}:${JSON.stringify(r)}`),
    );
    return [...entries, ...rows];
  });
}

/** Every Durable Object of every namespace the Worker binds that stores anything, by `<binding>:<id>`. */
export async function everyObjectsStorage(): Promise<Map<string, string[]>> {
  const all = new Map<string, string[]>();
  for (const binding of NAMESPACES) {
    const namespace = env[binding] as DurableObjectNamespace;
    for (const id of await listDurableObjectIds(namespace)) {
      const stored = await storageOf(namespace.get(id));
      if (stored.length > 0) all.set(`${binding}:${id.toString()}`, stored);
    }
  }
  return all;
}

/** Every key of the Worker's KV namespace. */
export async function everyKvKey(): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.STATE.list(cursor ? { cursor } : {});
    names.push(...page.keys.map((k) => k.name));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return names;
}
