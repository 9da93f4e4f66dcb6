import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { emulator, newOrg, standIn, standInUrl, visibleText } from "../../dev/in-workerd/bot.ts";
import { STANDIN_CLIENT_ID, STANDIN_CLIENT_SECRET } from "../../dev/slack/oauth.ts";
import { clickFor, findButton } from "../../dev/slack/payloads.ts";
import { STATE_TTL_MS } from "../../src/objects/install-state-object.ts";
import type { WorkspaceObject } from "../../src/objects/workspace-object.ts";
import { signState } from "../../src/util/signed-state.ts";
import { registryDirectoryStub, registryShard } from "../helpers/cases.ts";
import { envelope, eventsOf } from "../helpers/events.ts";
import {
  connectKey,
  decide,
  finish,
  install,
  installedWithKey,
  isInstalled,
  startInstall,
  tenantBot,
  workspaceOf,
} from "../helpers/installs.ts";

const storedJson = (teamId: string) =>
  runInDurableObject(workspaceOf(teamId) as DurableObjectStub<WorkspaceObject>, async (_o, state) =>
    JSON.stringify([...(await state.storage.list()).entries()]),
  );

const ephemeralText = (body: string) => visibleText(JSON.parse(body) as { text?: string });

describe("Add to Slack", () => {
  it("installs a workspace: the button page, Slack's consent, a page saying what to do next, the token sealed at rest", async () => {
    const bot = tenantBot(await newOrg());
    const flow = await startInstall(bot);
    expect(flow.start.status).toBe(200);
    expect(flow.page).toContain("Add to Slack");
    expect(flow.cookie).toMatch(/^decipher-install-state=[0-9a-z]+\.[0-9a-f]{32}\.[0-9a-f]{64}$/);
    const consent = new URL(flow.authorizeUrl);
    expect(`${consent.origin}${consent.pathname}`).toBe(`${standInUrl}/oauth/v2/authorize`);
    expect(consent.searchParams.get("scope")).toContain("chat:write");
    expect(consent.searchParams.get("redirect_uri")).toBe("http://bot.test/slack/oauth_redirect");

    const done = await finish(bot, await decide(flow, bot.botToken), flow.cookie);
    expect(done.status).toBe(200);
    expect(done.body).toContain("Decipher is installed in");
    expect(done.body).toContain("Connect Decipher");

    const team = await bot.team();
    const credentials = await workspaceOf(team).credentials();
    expect(credentials?.botToken).toMatch(/^xoxb-oauth-/);
    expect(credentials?.installerUserId).toBe("U0ALICE");
    const stored = await storedJson(team);
    expect(stored).toContain("v1.");
    expect(stored).not.toContain(credentials?.botToken ?? "missing");

    // The install works: a command is answered with the workspace's own token.
    const ack = await bot.command("/decipher", "help");
    expect(ephemeralText(ack.body)).toContain("Connect Decipher");
  });

  it("refuses a forged, replayed or expired state with a page saying to start again, and installs nothing", async () => {
    const bot = tenantBot(await newOrg());
    const forged = await finish(
      bot,
      "http://bot.test/slack/oauth_redirect?code=1.abc&state=ffffffffffffffffffffffffffffffffffffffffffffffff",
      "decipher-install-state=ffffffffffffffffffffffffffffffffffffffffffffffff",
    );
    expect(forged.status).toBe(400);
    expect(forged.body).toContain("expired or was already used");

    const flow = await startInstall(bot);
    const location = await decide(flow, bot.botToken);
    // A state from another browser (cookie and query disagree) is refused too.
    expect((await finish(bot, location, "decipher-install-state=0")).status).toBe(400);
    expect(await isInstalled(await bot.team())).toBe(false);

    const again = await startInstall(bot);
    const back = await decide(again, bot.botToken);
    expect((await finish(bot, back, again.cookie)).status).toBe(200);
    const replay = await finish(bot, back, again.cookie);
    expect(replay.status).toBe(400);
    expect(replay.body).toContain("Start again");

    // A state signed by this deployment, but 11 minutes ago: expired.
    const old = await signState(STANDIN_CLIENT_SECRET, Date.now() - 11 * 60 * 1000, STATE_TTL_MS);
    const late = await decide(
      { ...again, authorizeUrl: again.authorizeUrl.replace(/state=[^&]+/, `state=${old}`) },
      bot.botToken,
    );
    expect((await finish(bot, late, `decipher-install-state=${old}`)).status).toBe(400);
  });

  it("hands out a state without writing anything: only a used one is recorded", async () => {
    const bot = tenantBot(await newOrg());
    const states = env.INSTALL_STATES.get(env.INSTALL_STATES.idFromName("install-states"));
    const stored = () => runInDurableObject(states, async (_o, state) => (await state.storage.list()).size);
    const before = await stored();
    for (let i = 0; i < 3; i++) await startInstall(bot);
    expect(await stored()).toBe(before);
    // Signed with another secret: refused.
    const forged = await signState("not-the-client-secret", Date.now(), STATE_TTL_MS);
    expect(
      (
        await finish(
          bot,
          `http://bot.test/slack/oauth_redirect?code=1.abc&state=${forged}`,
          `decipher-install-state=${forged}`,
        )
      ).status,
    ).toBe(400);
  });

  it("says nothing was installed when the person cancels on Slack's page", async () => {
    const bot = tenantBot(await newOrg());
    const flow = await startInstall(bot);
    const page = await finish(bot, await decide(flow, bot.botToken, "cancel"), flow.cookie);
    expect(page.status).toBe(400);
    expect(page.body).toContain("cancelled");
    expect(await isInstalled(await bot.team())).toBe(false);
  });

  it("keeps the Decipher key and admins on a reinstall, with the new token and scopes", async () => {
    const { bot, apiKey } = await installedWithKey();
    const team = await bot.team();
    const before = await workspaceOf(team).credentials();
    expect(before?.decipherKey).toBe(apiKey);

    const done = await install(bot);
    expect(done.body).toContain("Decipher is updated in");
    const after = await workspaceOf(team).credentials();
    expect(after?.botToken).not.toBe(before?.botToken);
    expect(after?.decipherKey).toBe(apiKey);
    expect(after?.scopes).toContain("users:read");
    const status = await bot.command("/decipher", "list");
    expect(ephemeralText(status.body)).not.toContain("not installed");
  });
});

describe("token rotation", () => {
  it("spends the refresh token once when two callers refresh at once, and both get the new token", async () => {
    await standIn.call("POST", "/oauth/rotation", { on: true, expiresInSeconds: 120 });
    try {
      const bot = tenantBot(await newOrg());
      await install(bot);
      const team = await bot.team();
      const stub = workspaceOf(team);
      // 120 s is inside the 5-minute margin: the first use refreshes. Two isolates ask at once.
      const [a, b] = await Promise.all([stub.credentials(), stub.credentials()]);
      expect(a?.botToken).toBe(b?.botToken);
      const refreshes = await standIn.call<{ refreshes: number }>(
        "GET",
        `/oauth/refreshes?botToken=${encodeURIComponent(bot.botToken)}`,
      );
      expect(refreshes.refreshes).toBe(1);
      const check = await fetch(`${standInUrl}/api/auth.test`, {
        method: "POST",
        headers: { authorization: `Bearer ${a?.botToken}` },
      });
      expect(((await check.json()) as { ok: boolean }).ok).toBe(true);
      // The next refresh works with the stored (new) refresh token: nothing was lost.
      const c = await stub.credentials();
      expect(c?.botToken).not.toBe(a?.botToken);
      expect(
        (
          await standIn.call<{ refreshes: number }>(
            "GET",
            `/oauth/refreshes?botToken=${encodeURIComponent(bot.botToken)}`,
          )
        ).refreshes,
      ).toBe(2);
    } finally {
      await standIn.call("POST", "/oauth/rotation", { on: false });
    }
  });

  it("the stand-in, like Slack, refuses a refresh token that was already spent", async () => {
    await standIn.call("POST", "/oauth/rotation", { on: true, expiresInSeconds: 120 });
    try {
      const code = await fetch(
        `${standInUrl}/oauth/v2/decide?${new URLSearchParams({ decision: "allow", workspace: `xoxb-seed-${crypto.randomUUID()}`, redirect_uri: "http://x.test/cb", scope: "commands" })}`,
        { redirect: "manual" },
      );
      const given = new URL(code.headers.get("location") ?? "").searchParams.get("code") ?? "";
      const access = (body: Record<string, string>) =>
        fetch(`${standInUrl}/api/oauth.v2.access`, {
          method: "POST",
          body: new URLSearchParams({
            client_id: STANDIN_CLIENT_ID,
            client_secret: STANDIN_CLIENT_SECRET,
            ...body,
          }),
        }).then((r) => r.json() as Promise<{ ok: boolean; error?: string; refresh_token?: string }>);
      const first = await access({ code: given, redirect_uri: "http://x.test/cb" });
      expect((await access({ code: given, redirect_uri: "http://x.test/cb" })).error).toBe(
        "code_already_used",
      );
      const refresh = { grant_type: "refresh_token", refresh_token: first.refresh_token ?? "" };
      expect((await access(refresh)).ok).toBe(true);
      expect((await access(refresh)).error).toBe("invalid_refresh_token");
      expect((await access({ code: given, client_secret: "wrong" })).error).toBe("bad_client_secret");
    } finally {
      await standIn.call("POST", "/oauth/rotation", { on: false });
    }
  });
});

describe("tenancy", () => {
  it("uses each team's own token and Decipher key: a failure in one workspace alerts only there", async () => {
    const a = await installedWithKey("acme");
    const b = await installedWithKey("acme");
    expect(await a.bot.team()).not.toBe(await b.bot.team());
    // The same channel id and test id in both workspaces (Slack Connect channels share ids).
    await a.bot.command("/decipher", "subscribe test 101");
    await b.bot.command("/decipher", "subscribe test 101");
    const orgA = emulator.org(a.apiKey);
    const orgB = emulator.org(b.apiKey);
    await orgB.clearRequests();
    await orgA.addRun(101, "failed");
    await a.bot.cron();
    expect(await a.bot.posted()).toHaveLength(1);
    expect(await b.bot.posted()).toHaveLength(0);
    // B's organization was read with B's key only: A's failure is not in B's data, so no alert.
    await b.bot.cron();
    expect(await b.bot.posted()).toHaveLength(0);

    const listA = ephemeralText((await a.bot.command("/decipher", "list")).body);
    const listB = ephemeralText((await b.bot.command("/decipher", "list")).body);
    expect(listA).toContain("101");
    expect(listB).toContain("101");
    const keys = (await env.STATE.list()).keys.map((k) => k.name);
    expect(keys).toContain(`${await a.bot.team()}/sub:C0ALERTS:test:101`);
    expect(keys).toContain(`${await b.bot.team()}/sub:C0ALERTS:test:101`);
  });

  it("never lends one team's token or Decipher key to another's command, poll, unfurl, Home or click", async () => {
    const a = await installedWithKey("acme");
    const b = await installedWithKey("globex");
    await a.bot.command("/decipher", "subscribe test 101");
    await b.bot.command("/decipher", "subscribe test 201");
    const orgA = emulator.org(a.apiKey);
    const orgB = emulator.org(b.apiKey);
    await orgA.addRun(101, "failed");
    // The cron polls every team's subscriptions, each with its own team's token and key.
    await a.bot.cron();
    const bCallsBefore = (await b.bot.slackCalls()).length;
    await orgB.clearRequests();

    // A's command, unfurl, Home and alert: none reaches B's organization or B's workspace.
    await a.bot.command("/decipher", "status");
    const eventsA = eventsOf(a.bot);
    await eventsA.say("C0ALERTS", "https://app.decipher.test/tests/101");
    await eventsA.openHome();
    const homeA = JSON.stringify(await eventsA.views());
    expect(homeA).toContain("101");
    expect(homeA).not.toContain("201");
    const [alert] = await a.bot.posted();
    expect(alert).toBeDefined();
    expect(await orgB.requestTotal()).toBe(0);
    // B's cron polls B's test with B's key only (a 2nd workspace's calls are its own).
    expect((await b.bot.slackCalls()).length).toBe(bCallsBefore);
    const unfurls = (await a.bot.slackCalls()).filter((c) => c.method === "chat.unfurl");
    expect(unfurls.length).toBeGreaterThan(0);

    // A click on A's alert, signed, but naming B's team: B's app answers, and refuses A's subscription.
    const forged = await a.bot.signedPost(
      clickFor({
        teamId: await b.bot.team(),
        channelId: "C0ALERTS",
        userId: "U0ALICE",
        responseUrl: await standIn.responseUrl(b.bot.botToken, "C0ALERTS", "U0ALICE"),
        messageTs: alert?.ts ?? "",
        ephemeral: false,
        button: findButton(alert as never, "triage_acknowledge") as never,
      }),
    );
    expect(forged.status).toBe(200);
    const parent = (await a.bot.posted())[0];
    expect(visibleText(parent ?? {})).not.toContain("looking");
  });

  it("answers a signed command for a team that never installed with 'not installed', touching no workspace", async () => {
    const a = await installedWithKey();
    const callsBefore = (await a.bot.slackCalls()).length;
    const forged = await a.bot.signedPost(
      new URLSearchParams({
        command: "/decipher",
        text: "list",
        team_id: "TNEVERINSTALLED",
        channel_id: "C0ALERTS",
        user_id: "U0ALICE",
        response_url: `${standInUrl}/response/none`,
      }).toString(),
    );
    expect(forged.status).toBe(200);
    expect(ephemeralText(forged.body)).toContain("not installed in this workspace");
    expect(ephemeralText(forged.body)).toContain("/slack/install");
    expect((await a.bot.slackCalls()).length).toBe(callsBefore);
    // A team that never installed has no token and no key to lend.
    expect(await workspaceOf("TNEVERINSTALLED").credentials()).toBeNull();
  });

  it("tells a workspace without a Decipher key how to connect one, and refuses a key Decipher rejects", async () => {
    const bot = tenantBot(await newOrg());
    await install(bot);
    const ack = await bot.command("/decipher", "subscribe test 101");
    expect(ephemeralText(ack.body)).toContain("Connect Decipher");
    const rejected = await connectKey(bot, "dcp_not_a_real_key");
    expect(rejected.body).toContain("Decipher rejected this key");
    expect(await workspaceOf(await bot.team()).decipherKeyInfo()).toBeNull();
    const events = eventsOf(bot);
    await events.openHome();
    const home = await events.views();
    expect(JSON.stringify(home)).toContain("not connected yet");
    // Someone who neither installed the app nor administers the workspace gets a refusal.
    await events.openHome("U0BOB");
    await events.clickInHome("decipher_connect_open", "U0BOB");
    expect(JSON.stringify(await events.views("U0BOB"))).toContain("Only <@U0ALICE>");
  });
});

describe("uninstall", () => {
  it("purges the team's subscriptions, objects, KV keys, tokens and key; a reinstall starts clean", async () => {
    const { bot, apiKey } = await installedWithKey();
    const team = await bot.team();
    await bot.command("/decipher", "subscribe test 101");
    await bot.command("/decipher", "digest 09:00 UTC");
    expect((await env.STATE.list({ prefix: `${team}/` })).keys.length).toBeGreaterThan(0);

    const events = eventsOf(bot);
    const ack = await events.send(envelope(team, { type: "app_uninstalled" }));
    expect(ack.status).toBe(200);
    expect((await env.STATE.list({ prefix: `${team}/` })).keys).toEqual([]);
    expect(await isInstalled(team)).toBe(false);
    expect(await (await registryShard(bot)).list()).toEqual([]);
    const { teams } = await registryDirectoryStub().dueShards(new Date().toISOString(), {
      all: true,
      limit: 1_000,
    });
    expect(teams).not.toContain(team);
    expect(ephemeralText((await bot.command("/decipher", "list")).body)).toContain("not installed");

    // Polling stopped: a failure after the uninstall posts nothing.
    await emulator.org(apiKey).addRun(101, "failed");
    await bot.cron();
    expect(await bot.posted()).toHaveLength(0);

    await install(bot);
    expect(await workspaceOf(team).decipherKeyInfo()).toBeNull();
    await connectKey(bot, apiKey);
    expect(ephemeralText((await bot.command("/decipher", "list")).body)).not.toContain("101");
  });

  it("acknowledges org-level events of an Enterprise Grid install with 200 and changes nothing", async () => {
    const { bot } = await installedWithKey();
    const org = { ...envelope("", { type: "app_uninstalled" }), team_id: null, is_enterprise_install: true };
    const ack = await eventsOf(bot).send(org as never);
    expect(ack.status).toBe(200);
    expect(await isInstalled(await bot.team())).toBe(true);
  });
});
