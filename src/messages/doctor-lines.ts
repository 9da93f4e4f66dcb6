import type { ChannelCheck, DoctorLine, TokenCheck } from "../model/doctor-line.ts";
import { DAY_SHARE, type Governed } from "../model/plan-governor.ts";
import { every, overLine } from "./clock-pace.ts";

// The doctor's lines (src/model/doctor-line.ts). Every time in them is a clock time in UTC, so
// a line read an hour later is still true.

export type DecipherCheck =
  | { ok: true; keyEnding: string }
  | { ok: false; status: number | null; code: string };

/** Everything the doctor found, gathered by src/handlers/doctor/deep-facts.ts. */
export type DoctorFacts = {
  /** Multi-workspace mode checks Slack and Decipher per workspace, from Slack. */
  multiWorkspace: boolean;
  token: TokenCheck | null;
  neededScopes: readonly string[];
  decipher: DecipherCheck | null;
  channels: { checked: ChannelCheck[]; total: number } | null;
  distribution: { tier: "internal" | "distributed" };
  clocks: {
    lastCycleAt: string | null;
    lastSuccessAt: string | null;
    subscriptions: number;
    stale: boolean;
    watchdogLate: boolean;
  } | null;
  governed: Governed | null;
};

const clock = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

const SET_TOKEN =
  "copy the Bot User OAuth Token from the app's OAuth & Permissions page and run `wrangler secret put SLACK_BOT_TOKEN`";

/** The signature held: the Worker has the signing secret the request was signed with. */
export const signingLine: DoctorLine = {
  check: "signing secret",
  ok: true,
  text: "this request's signature holds: the Worker has the app's signing secret",
};

function tokenLines(facts: DoctorFacts): DoctorLine[] {
  const { token } = facts;
  if (!token) return [];
  if (!token.ok) {
    const fix =
      token.code === "token_expired"
        ? `a rotating token (xoxe.xoxb-) lasts 12 hours and this mode cannot renew it: turn token rotation off, reinstall, and ${SET_TOKEN}`
        : ["invalid_auth", "token_revoked", "account_inactive", "not_authed"].includes(token.code)
          ? SET_TOKEN
          : "Slack did not answer; run the doctor again in a minute (https://slack-status.com)";
    return [{ check: "Slack token", ok: false, text: `auth.test failed: ${token.code}`, fix }];
  }
  const lines: DoctorLine[] = [
    { check: "Slack token", ok: true, text: `works in the workspace ${token.team} (${token.teamId})` },
  ];
  if (token.scopes === null) {
    lines.push({
      check: "Slack scopes",
      ok: false,
      text: "Slack did not say which scopes the token has (no x-oauth-scopes header)",
      fix: "run the doctor again; if it stays, compare the app's Bot Token Scopes with slack/manifest.yml",
    });
    return lines;
  }
  const granted = new Set(token.scopes);
  const missing = facts.neededScopes.filter((s) => !granted.has(s));
  lines.push(
    missing.length === 0
      ? {
          check: "Slack scopes",
          ok: true,
          text: `all ${facts.neededScopes.length} scopes the bot uses are granted`,
        }
      : {
          check: "Slack scopes",
          ok: false,
          text: `the token lacks ${missing.join(", ")}`,
          fix: "add them under OAuth & Permissions → Bot Token Scopes (slack/manifest.yml gives each one's reason), reinstall the app, and set the new token",
        },
  );
  return lines;
}

function decipherLine(decipher: DecipherCheck | null): DoctorLine[] {
  if (!decipher) return [];
  if (decipher.ok)
    return [
      {
        check: "Decipher key",
        ok: true,
        text: `the key ending ${decipher.keyEnding} reads its organization's sessions`,
      },
    ];
  const rejected = decipher.status === 401 || decipher.status === 403;
  return [
    {
      check: "Decipher key",
      ok: false,
      text: rejected
        ? `Decipher refused DECIPHER_API_KEY (${decipher.status} ${decipher.code})`
        : `Decipher did not answer a read (${decipher.code})`,
      fix: rejected
        ? "create an organization key in Decipher (Settings → API keys) and run `wrangler secret put DECIPHER_API_KEY`"
        : "check DECIPHER_API_URL, then run the doctor again in a minute",
    },
  ];
}

const CHANNEL_FIX: Record<Exclude<ChannelCheck["state"], "member">, string> = {
  not_member: "type `/invite @Decipher` in it",
  archived: "unarchive it, or `/decipher unsubscribe` its tests",
  gone: "the bot cannot see it (a private channel it is not in, or deleted): invite it with `/invite @Decipher`",
  unknown: "Slack did not answer; run the doctor again",
};

function channelLines(channels: DoctorFacts["channels"]): DoctorLine[] {
  if (!channels) return [];
  const { checked, total } = channels;
  const of = checked.length < total ? ` (the first ${checked.length} of ${total})` : "";
  const bad = checked.filter((c) => c.state !== "member");
  if (bad.length === 0)
    return [
      {
        check: "channels",
        ok: true,
        text:
          total === 0
            ? "no channel has a subscription yet"
            : `the bot is in every channel with a subscription${of}: ${checked.length}`,
      },
    ];
  return bad.map((c) => ({
    check: "channels",
    ok: false,
    text: `channel ${c.channelId}: ${c.state === "not_member" ? "the bot is not a member" : c.state === "archived" ? "archived" : `Slack answered ${c.code ?? "nothing"}`}`,
    fix: CHANNEL_FIX[c.state as keyof typeof CHANNEL_FIX],
  }));
}

function distributionLine({ tier }: DoctorFacts["distribution"]): DoctorLine {
  return {
    check: "distribution",
    ok: true,
    text:
      tier === "distributed"
        ? "history is read once a minute, 15 messages a page, as Slack allows an app installed outside the Marketplace (SLACK_DISTRIBUTION)"
        : "history is read at Tier 3, as Slack allows an internal or Marketplace app (SLACK_DISTRIBUTION); set SLACK_DISTRIBUTION=distributed if the app is installed in other workspaces without Marketplace approval",
  };
}

function clockLine(clocks: DoctorFacts["clocks"]): DoctorLine {
  if (!clocks)
    return {
      check: "clocks",
      ok: false,
      text: "the engine's registry did not answer",
      fix: "check the Durable Object bindings and migrations in wrangler.toml, then deploy again",
    };
  if (!clocks.lastCycleAt)
    return {
      check: "clocks",
      ok: false,
      text: "the minute cron has not run yet",
      fix: "wait a minute after a deploy; if it stays, check [triggers] crons in wrangler.toml and the Worker's Triggers tab",
    };
  const ran = `the minute cron last ran at ${clock(clocks.lastCycleAt)}`;
  const polled = clocks.lastSuccessAt
    ? `, the last successful poll was at ${clock(clocks.lastSuccessAt)}`
    : "";
  if (clocks.watchdogLate)
    return {
      check: "clocks",
      ok: false,
      text: `${ran}: over 3 minutes before this check`,
      fix: "check the Worker's Triggers tab (the cron) and its logs",
    };
  if (clocks.stale)
    return {
      check: "clocks",
      ok: false,
      text: `${ran}${polled || ", and no poll has succeeded"}: over 15 minutes before this check`,
      fix: "run `/decipher status` in a subscribed channel: it says which polls fail and why",
    };
  return { check: "clocks", ok: true, text: `${ran}${polled}` };
}

function budgetLine(governed: Governed | null): DoctorLine[] {
  if (!governed) return [];
  if (!governed.tightest)
    return [{ check: "daily budget", ok: true, text: `${governed.plan}: no daily limit to stay under` }];
  const percent = Math.round(governed.tightest.share * 100);
  const over = overLine(governed);
  return [
    {
      check: "daily budget",
      ok: !over && governed.tightest.share <= DAY_SHARE,
      text: `polling ${every(governed.pace.idleMs)}, a day uses about ${percent} % of the daily ${governed.tightest.name} on ${governed.plan}`,
      ...(over ? { fix: "set PLAN=paid on Workers Paid, or watch fewer tests" } : {}),
    },
  ];
}

/** The doctor's lines, in the order a person fixes things: access first, then the clocks. */
export function doctorLines(facts: DoctorFacts): DoctorLine[] {
  const perWorkspace: DoctorLine[] = facts.multiWorkspace
    ? [
        {
          check: "workspaces",
          ok: true,
          text: "multi-workspace mode: each workspace's token, scopes, Decipher key and channels are checked by `/decipher doctor` in that workspace",
        },
      ]
    : [...tokenLines(facts), ...decipherLine(facts.decipher), ...channelLines(facts.channels)];
  return [
    signingLine,
    ...perWorkspace,
    distributionLine(facts.distribution),
    clockLine(facts.clocks),
    ...budgetLine(facts.governed),
  ];
}
