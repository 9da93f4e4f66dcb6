import { INSTALL_SCOPES } from "./model/install-scopes.ts";
import { FREE_PLAN, PAID_PLAN, type Plan } from "./model/plan-governor.ts";
import { parseHttpUrl } from "./util/checks.ts";

/**
 * Bindings: generated from wrangler.toml and `.dev.vars.example` by `npm run cf-typegen`
 * (src/worker-configuration.d.ts), plus the tuning knobs that have defaults.
 */
export type Env = Cloudflare.Env & {
  /** Per-request timeout for Decipher calls in ms (default 8000). */
  VENDOR_TIMEOUT_MS?: string;
  /** Per-call timeout for Slack Web API calls in ms (default 10000). */
  SLACK_TIMEOUT_MS?: string;
  /** How old an unknown post outcome must be before it is looked up in Slack, in ms (default 30000). */
  SLACK_LOOKUP_AFTER_MS?: string;
  /**
   * How the Slack app is distributed, which sets how often it may read channel history:
   * `internal` (one workspace's own app) or `marketplace` read at Tier 3; `distributed` (Add to
   * Slack outside the Marketplace) once a minute, 15 messages a page. Default: `internal` for
   * one workspace, `distributed` with SLACK_CLIENT_ID.
   */
  SLACK_DISTRIBUTION?: string;
  /** Multi-workspace mode (Add to Slack): set, it replaces SLACK_BOT_TOKEN and DECIPHER_API_KEY. */
  SLACK_CLIENT_ID?: string;
  SLACK_CLIENT_SECRET?: string;
  /** Comma-separated bot scopes asked for at install (default: the manifest's, INSTALL_SCOPES). */
  SLACK_BOT_SCOPES?: string;
  /** The OAuth redirect URL registered with Slack (default: this Worker's /slack/oauth_redirect). */
  SLACK_REDIRECT_URI?: string;
  /** Where people approve an install (default https://slack.com/oauth/v2/authorize; the stand-in's in dev). */
  SLACK_OAUTH_URL?: string;
  /** Base64 of 32 random bytes: encrypts stored bot tokens and Decipher keys (AES-GCM). */
  ENCRYPTION_KEY?: string;
  /**
   * Who keeps the poll clock (docs/operations.md, "The clock"): `alarms` (default), each subscription object
   * its own, with the cron as watchdog; `cron`, the cron polls every subscription each minute
   * and no object sets an alarm, for tests that set the time of each cycle themselves.
   */
  POLL_CLOCK?: string;
  /**
   * The Cloudflare plan whose daily limits the clock keeps under (src/model/plan-governor.ts):
   * `free` (default), `paid` (no daily limit), or the limits themselves, as
   * `requests=100000,rows_written=100000,rows_read=5000000`.
   */
  PLAN?: string;
  /** The most subscriptions one channel may have (default 200). */
  SUBSCRIPTIONS_PER_CHANNEL?: string;
  /** The most subscriptions one workspace may have (default 2000). */
  SUBSCRIPTIONS_PER_TEAM?: string;
};

/** Add to Slack: present only in multi-workspace mode. */
export type InstallConfig = {
  clientId: string;
  clientSecret: string;
  botScopes: string;
  redirectUri: string | null;
  oauthUrl: string;
  encryptionKey: string;
};

/** Configuration after checking: every value present and well formed. */
export type Config = {
  decipherApiUrl: string;
  decipherAppUrl: string;
  decipherApiKey: string;
  slackSigningSecret: string;
  slackBotToken: string;
  slackApiUrl: string;
  /** Empty means everyone may change subscriptions. */
  adminUserIds: ReadonlySet<string>;
  vendorTimeoutMs: number;
  slackTimeoutMs: number;
  slackLookupAfterMs: number;
  /** The history tier Slack gives this app (src/slack-api/find-posted.ts `HISTORY_TIERS`). */
  slackHistoryTier: "internal" | "distributed";
  /**
   * Multi-workspace mode: each team's token and Decipher key come from its installation
   * (src/objects/tenancy.ts), and `slackBotToken`/`decipherApiKey` here are empty.
   */
  install: InstallConfig | null;
  /**
   * What every KV key of this configuration's workspace starts with: empty in single-workspace
   * mode (keys as they always were), `<teamId>/` for one team of a multi-workspace install.
   */
  kvScope: string;
  clock: "alarms" | "cron";
  /** The plan's daily limits, which the governor keeps the clock under. */
  plan: Plan;
  /** The most subscriptions a channel and a workspace may have. */
  subscriptionCaps: { channel: number; team: number };
};

/** Multi-workspace mode is chosen by SLACK_CLIENT_ID alone, so every layer can tell without the rest. */
export const isMultiWorkspace = (env: Pick<Env, "SLACK_CLIENT_ID">): boolean =>
  Boolean(env.SLACK_CLIENT_ID?.trim());

export class ConfigError extends Error {
  override readonly name = "ConfigError";
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`Configuration problem: ${problems.join("; ")}`);
    this.problems = problems;
  }
}

const DEFAULTS = {
  DECIPHER_API_URL: "https://api.getdecipher.com",
  DECIPHER_APP_URL: "https://app.getdecipher.com",
  SLACK_API_URL: "https://slack.com/api/",
} as const;

const SECRETS = ["DECIPHER_API_KEY", "SLACK_SIGNING_SECRET", "SLACK_BOT_TOKEN"] as const;
const MULTI_SECRETS = ["SLACK_SIGNING_SECRET", "SLACK_CLIENT_SECRET", "ENCRYPTION_KEY"] as const;
const URLS = ["DECIPHER_API_URL", "DECIPHER_APP_URL", "SLACK_API_URL"] as const;

/**
 * Checks the whole configuration at once so one deploy fixes every problem, and names
 * variables without ever repeating their values (they may be secrets).
 */
export function readConfig(env: Env): Config {
  const problems: string[] = [];
  const multi = isMultiWorkspace(env);
  const halfMulti = halfMultiProblem(env);
  if (halfMulti) problems.push(halfMulti);
  for (const name of multi ? MULTI_SECRETS : halfMulti ? (["SLACK_SIGNING_SECRET"] as const) : SECRETS) {
    if (!env[name]?.trim())
      problems.push(`${name} is not set (wrangler secret put ${name}, or .dev.vars locally)`);
  }
  const urls = {} as Record<(typeof URLS)[number], string>;
  for (const name of URLS) {
    const value = env[name]?.trim() || DEFAULTS[name];
    if (!parseHttpUrl(value)) problems.push(`${name} must be an http(s) URL`);
    urls[name] = value.replace(/\/+$/, "");
  }
  if (!multi && env.SLACK_BOT_TOKEN?.trim() && !isBotToken(env.SLACK_BOT_TOKEN.trim())) {
    problems.push(
      "SLACK_BOT_TOKEN must be a bot token starting with xoxb- (or xoxe.xoxb- when token rotation is on)",
    );
  }
  const timeout = readMs(env, "VENDOR_TIMEOUT_MS", 8000, [100, 25_000], problems);
  const slackTimeout = readMs(env, "SLACK_TIMEOUT_MS", 10_000, [100, 25_000], problems);
  const lookupAfter = readMs(env, "SLACK_LOOKUP_AFTER_MS", 30_000, [0, 300_000], problems);
  const distribution = env.SLACK_DISTRIBUTION?.trim() || (multi ? "distributed" : "internal");
  if (!["internal", "marketplace", "distributed"].includes(distribution))
    problems.push("SLACK_DISTRIBUTION must be internal, marketplace or distributed");
  const install = multi ? readInstall(env, problems) : null;
  const clock = env.POLL_CLOCK?.trim() || "alarms";
  if (clock !== "alarms" && clock !== "cron") problems.push("POLL_CLOCK must be alarms or cron");
  const plan = readPlan(env.PLAN, problems);
  const caps = readCaps(env, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    decipherApiUrl: urls.DECIPHER_API_URL,
    decipherAppUrl: urls.DECIPHER_APP_URL,
    // slack-edge joins method names onto this base, so it keeps its trailing slash.
    slackApiUrl: `${urls.SLACK_API_URL}/`,
    // Multi-workspace mode never falls back to the single workspace's secrets: each team's own
    // come from its installation (src/objects/tenancy.ts).
    decipherApiKey: multi ? "" : (env.DECIPHER_API_KEY ?? "").trim(),
    slackSigningSecret: (env.SLACK_SIGNING_SECRET ?? "").trim(),
    slackBotToken: multi ? "" : (env.SLACK_BOT_TOKEN ?? "").trim(),
    adminUserIds: parseUserIds(env.ADMIN_USER_IDS),
    vendorTimeoutMs: timeout,
    slackTimeoutMs: slackTimeout,
    slackLookupAfterMs: lookupAfter,
    slackHistoryTier: distribution === "distributed" ? "distributed" : "internal",
    install,
    kvScope: "",
    clock: clock === "cron" ? "cron" : "alarms",
    plan,
    subscriptionCaps: caps,
  };
}

/**
 * A bot token: `xoxb-`, or `xoxe.xoxb-` once the app turned token rotation on (an access token
 * that expires after 12 hours, https://docs.slack.dev/authentication/using-token-rotation).
 */
const isBotToken = (token: string) => token.startsWith("xoxb-") || token.startsWith("xoxe.xoxb-");

/**
 * Multi-workspace secrets without SLACK_CLIENT_ID: most likely the id was set in the dashboard
 * and the last `wrangler deploy` deleted it (vars not in wrangler.toml are, unless keep_vars).
 * Said as the one problem, rather than falling back to single-workspace mode and asking for
 * SLACK_BOT_TOKEN, which the person never had to set.
 */
function halfMultiProblem(env: Env): string | null {
  if (isMultiWorkspace(env)) return null;
  const set = (["SLACK_CLIENT_SECRET", "ENCRYPTION_KEY"] as const).filter((name) => env[name]?.trim());
  if (set.length === 0) return null;
  return `${set.join(" and ")} ${set.length > 1 ? "are" : "is"} set but SLACK_CLIENT_ID is not: for multi-workspace mode write SLACK_CLIENT_ID in wrangler.toml [vars] and deploy (a deploy deletes a var set only in the dashboard); for one workspace, delete ${set.join(" and ")} (wrangler secret delete NAME)`;
}

/** A whole number of milliseconds within `range` from `name`, or `fallback` when it is not set. */
function readMs(
  env: Env,
  name: "VENDOR_TIMEOUT_MS" | "SLACK_TIMEOUT_MS" | "SLACK_LOOKUP_AFTER_MS",
  fallback: number,
  [min, max]: [number, number],
  problems: string[],
): number {
  const ms = env[name]?.trim() ? Number(env[name]) : fallback;
  if (!Number.isInteger(ms) || ms < min || ms > max)
    problems.push(`${name} must be a whole number of milliseconds from ${min} to ${max}`);
  return ms;
}

const readCaps = (env: Env, problems: string[]) => ({
  channel: readCount(env, "SUBSCRIPTIONS_PER_CHANNEL", 200, problems),
  team: readCount(env, "SUBSCRIPTIONS_PER_TEAM", 2000, problems),
});

/** A whole number of at least 1 from `name`, or `fallback` when it is not set. */
function readCount(
  env: Env,
  name: "SUBSCRIPTIONS_PER_CHANNEL" | "SUBSCRIPTIONS_PER_TEAM",
  fallback: number,
  problems: string[],
): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (Number.isInteger(n) && n >= 1 && n <= 100_000) return n;
  problems.push(`${name} must be a whole number from 1 to 100000`);
  return fallback;
}

const PLAN_FIELDS = {
  requests: "objectRequests",
  rows_written: "rowsWritten",
  rows_read: "rowsRead",
} as const;

/** `PLAN`: a plan by name, or its daily limits by name (each one, a whole number above 0). */
function readPlan(raw: string | undefined, problems: string[]): Plan {
  const value = raw?.trim().toLowerCase() || "free";
  if (value === "free") return FREE_PLAN;
  if (value === "paid") return PAID_PLAN;
  const daily = { ...(FREE_PLAN.daily as NonNullable<Plan["daily"]>) };
  for (const part of value.split(",")) {
    const [name = "", number = ""] = part.split("=").map((x) => x.trim());
    const field = PLAN_FIELDS[name as keyof typeof PLAN_FIELDS];
    const n = Number(number);
    if (!field || !/^\d+$/.test(number) || n <= 0) {
      problems.push(
        "PLAN must be free, paid, or daily limits like requests=100000,rows_written=100000,rows_read=5000000",
      );
      return FREE_PLAN;
    }
    daily[field] = n;
  }
  return { name: "the plan set in PLAN", daily };
}

function readInstall(env: Env, problems: string[]): InstallConfig {
  const key = env.ENCRYPTION_KEY?.trim() ?? "";
  if (key && base64Length(key) !== 32)
    problems.push("ENCRYPTION_KEY must be base64 of 32 random bytes (openssl rand -base64 32)");
  const redirect = env.SLACK_REDIRECT_URI?.trim() || null;
  if (redirect && !parseHttpUrl(redirect)) problems.push("SLACK_REDIRECT_URI must be an http(s) URL");
  const oauthUrl = env.SLACK_OAUTH_URL?.trim() || "https://slack.com/oauth/v2/authorize";
  if (!parseHttpUrl(oauthUrl)) problems.push("SLACK_OAUTH_URL must be an http(s) URL");
  return {
    clientId: (env.SLACK_CLIENT_ID ?? "").trim(),
    clientSecret: (env.SLACK_CLIENT_SECRET ?? "").trim(),
    botScopes: env.SLACK_BOT_SCOPES?.trim() || INSTALL_SCOPES,
    redirectUri: redirect,
    oauthUrl,
    encryptionKey: key,
  };
}

function base64Length(text: string): number {
  try {
    return atob(text).length;
  } catch {
    return -1;
  }
}

function parseUserIds(raw: string | undefined): ReadonlySet<string> {
  return new Set((raw ?? "").split(/[\s,]+/).filter((id) => id.length > 0));
}
