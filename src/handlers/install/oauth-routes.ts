import type { Config, Env } from "../../config.ts";
import { reinstalledBy } from "../../messages/connect-decipher.ts";
import { installStates, workspaceObject } from "../../objects/addresses.ts";
import { STATE_TTL_MS } from "../../objects/install-state-object.ts";
import { forgetTeam } from "../../objects/tenancy.ts";
import { createSlackClient, type SlackClient } from "../../slack-api/slack-client.ts";
import { classifySlackFailure } from "../../slack-api/slack-errors.ts";
import { isWorkspaceAdmin } from "../../slack-api/workspace-admin.ts";
import { describeError } from "../../util/describe-error.ts";
import { signState, verifyState } from "../../util/signed-state.ts";
import {
  failurePage,
  INSTALL_PATH,
  OAUTH_REDIRECT_PATH,
  STATE_REFUSED,
  startPage,
  successPage,
} from "./install-pages.ts";

const STATE_COOKIE = "decipher-install-state";

const html = (body: string, status: number, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", ...headers } });

const redirectUri = (config: Config, request: Request) =>
  config.install?.redirectUri ?? `${new URL(request.url).origin}${OAUTH_REDIRECT_PATH}`;

/**
 * The code's exchange, through the bot's own client (on SLACK_API_URL, so a stand-in answers
 * it too), once the state (cookie and single use) and the code's presence are checked.
 */
async function exchange(config: Config, env: Env, request: Request): Promise<Response> {
  const install = config.install;
  const code = new URL(request.url).searchParams.get("code") ?? "";
  if (!install) return html(failurePage("Add to Slack is not set up on this deployment."), 404);
  const client = createSlackClient({ slackBotToken: "", slackApiUrl: config.slackApiUrl });
  let answer: Awaited<ReturnType<typeof client.oauth.v2.access>>;
  try {
    answer = await client.oauth.v2.access({
      client_id: install.clientId,
      client_secret: install.clientSecret,
      redirect_uri: redirectUri(config, request),
      code,
    });
  } catch (error) {
    const code = classifySlackFailure(error).code;
    console.warn(`oauth.v2.access failed (${code})`);
    return html(
      failurePage(
        code === "invalid_code" || code === "code_already_used"
          ? "Slack says this approval was already used or has expired. Start again and approve once."
          : `Slack refused the install (${code}). Start again; if it keeps failing, tell whoever runs this deployment.`,
      ),
      400,
    );
  }
  if (answer.is_enterprise_install || !answer.team?.id) {
    return html(
      failurePage(
        "Org-wide (Enterprise Grid) installs are not supported. Install Decipher into one workspace at a time.",
      ),
      400,
    );
  }
  const teamId = answer.team.id;
  const { first } = await saveInstall(env, config, { ...answer, team: { ...answer.team, id: teamId } });
  forgetTeam(teamId);
  console.log(`installed ${teamId} (${first ? "first install" : "reinstall"})`);
  return html(
    successPage({ teamName: answer.team.name ?? null, teamId, appId: answer.app_id ?? "", first }),
    200,
    {
      "set-cookie": `${STATE_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`,
    },
  );
}

type Access = Awaited<ReturnType<SlackClient["oauth"]["v2"]["access"]>> & { team: { id: string } };

/** The approved install, saved in the team's WorkspaceObject; the installer told when someone else approved it again. */
async function saveInstall(env: Env, config: Config, answer: Access): Promise<{ first: boolean }> {
  const installed = createSlackClient({
    slackBotToken: answer.access_token ?? "",
    slackApiUrl: config.slackApiUrl,
  });
  const by = answer.authed_user?.id ?? "";
  const { first, keptFrom } = await workspaceObject(env, answer.team.id).install(
    {
      teamId: answer.team.id,
      teamName: answer.team.name ?? null,
      appId: answer.app_id ?? "",
      installerUserId: by,
      botUserId: answer.bot_user_id ?? "",
      botToken: answer.access_token ?? "",
      scopes: (answer.scope ?? "").split(",").filter(Boolean),
      refreshToken: answer.refresh_token ?? null,
      expiresAt: answer.expires_in ? Date.now() + answer.expires_in * 1000 : null,
    },
    new Date().toISOString(),
    await isWorkspaceAdmin(installed, by),
  );
  if (keptFrom) await tellInstaller(installed, keptFrom, by);
  return { first };
}

/** A member approved the app again: the installer hears it in a DM, and that nothing of theirs changed. */
async function tellInstaller(slack: SlackClient, installerUserId: string, by: string): Promise<void> {
  try {
    await slack.chat.postMessage({ channel: installerUserId, ...reinstalledBy(by) });
  } catch (error) {
    console.warn(`the installer could not be told of a reinstall (${classifySlackFailure(error).code})`);
  }
}

/** A Slack team id, as Slack writes them (`T` and capitals and digits). */
const TEAM_ID = /^T[A-Z0-9]{1,20}$/;

const DENIED: Record<string, string> = {
  access_denied: "The install was cancelled on Slack's page, so nothing was installed.",
};

/**
 * The state cookie's value, read as slack-edge's parser (the `cookie` package's) reads it: the
 * first pair of that name, without quotes, URL-decoded where that works.
 */
function cookieValue(header: string, name: string): string | undefined {
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq === -1 || pair.slice(0, eq).trim() !== name) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.charCodeAt(0) === 0x22) value = value.slice(1, -1);
    try {
      return value.includes("%") ? decodeURIComponent(value) : value;
    } catch {
      return value;
    }
  }
  return undefined;
}

/**
 * GET /slack/install and /slack/oauth_redirect: Slack's OAuth v2 flow, in the steps and with
 * the answers of slack-edge's SlackOAuthApp (1.3), whose start page, failure pages and code
 * exchange the bot replaced with its own, so only its state check was left to it. Not that
 * class itself: its module brings SlackApp, OpenID Connect, Socket Mode and the assistant
 * into the bundle (docs/architecture.md, "Each dependency, and why").
 */
export function installRoutes(config: Config, env: Env): { handle(request: Request): Promise<Response> } {
  const install = config.install;
  if (!install)
    return { handle: async () => html(failurePage("Add to Slack is not set up on this deployment."), 404) };
  const { clientId, clientSecret, botScopes, oauthUrl } = install;

  async function start(request: Request): Promise<Response> {
    const state = await signState(clientSecret, Date.now(), STATE_TTL_MS);
    // Only a Slack team id is passed on (`team` preselects the workspace): anything else in
    // the link must not reach the authorize URL, where it could choose scopes, client or state.
    const team = new URL(request.url).searchParams.get("team") ?? "";
    // slack-edge's authorize URL (state, client id, scopes, team), on SLACK_OAUTH_URL and with
    // the redirect from config; each value set, so each is encoded and none is given twice.
    const target = new URL(oauthUrl);
    const query = {
      state,
      client_id: clientId,
      scope: botScopes,
      redirect_uri: redirectUri(config, request),
    };
    for (const [name, value] of Object.entries(query)) target.searchParams.set(name, value);
    if (TEAM_ID.test(team)) target.searchParams.set("team", team);
    const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
    return html(startPage(target.toString()), 200, {
      "set-cookie": `${STATE_COOKIE}=${state}; Path=/; HttpOnly; SameSite=Lax; Max-Age=600${secure}`,
      "cache-control": "no-store",
    });
  }

  const failure = (request: Request, reason: string) => {
    const error = new URL(request.url).searchParams.get("error");
    return html(
      failurePage(
        (error && DENIED[error]) ??
          (error
            ? `Slack ended the install (${error.slice(0, 60)}).`
            : `The install did not finish (${reason}).`),
      ),
      400,
    );
  };

  /** The browser's own state (cookie and query agree), signed by us, not expired, used once. */
  async function stateUsable(state: string | null, request: Request): Promise<boolean> {
    if (!state || state !== cookieValue(request.headers.get("Cookie") || "", STATE_COOKIE)) return false;
    const verified = await verifyState(clientSecret, state, Date.now());
    return verified !== null && (await installStates(env).useOnce(verified.nonce, verified.expiresAt));
  }

  async function callback(request: Request): Promise<Response> {
    const { searchParams } = new URL(request.url);
    const state = searchParams.get("state");
    if (!(await stateUsable(state, request))) return html(failurePage(STATE_REFUSED), 400);
    // slack-edge's order: an empty `error` fails as such; any other leaves the code to decide.
    if (searchParams.get("error") === "") return failure(request, "");
    if (!searchParams.get("code")) return failure(request, "missing-code");
    return exchange(config, env, request).catch((error: unknown) => {
      console.error(`install failed: ${describeError(error)}`);
      return html(failurePage("Saving the install failed. Start again in a minute."), 500);
    });
  }

  return {
    async handle(request) {
      const { pathname } = new URL(request.url);
      if (request.method === "GET" && pathname === INSTALL_PATH) return start(request);
      if (request.method === "GET" && pathname === OAUTH_REDIRECT_PATH) return callback(request);
      return new Response("Not found", { status: 404 });
    },
  };
}
