import {
  type Authorize,
  type Installation,
  type InstallationStore,
  type InstallationStoreQuery,
  SlackOAuthApp,
  type SlackOAuthEnv,
  type StateStore,
} from "slack-edge";
import type { Config, Env } from "../../config.ts";
import { installStates, workspaceObject } from "../../objects/addresses.ts";
import { forgetTeam, purgeTeam, teamCredentials } from "../../objects/tenancy.ts";
import { createSlackClient } from "../../slack-api/slack-client.ts";
import { classifySlackFailure } from "../../slack-api/slack-errors.ts";
import { describeError } from "../../util/describe-error.ts";
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

/** slack-edge's StateStore on the one InstallStateObject: each state works once, for 10 minutes. */
function stateStore(env: Env): StateStore {
  return {
    issueNewState: () => installStates(env).issue(),
    consume: (state) => installStates(env).consume(state ?? ""),
  };
}

/**
 * slack-edge's InstallationStore on the WorkspaceObjects. Its `save` is not reached through
 * slack-edge's callback (see `exchange` below) but keeps the interface whole; Enterprise Grid
 * org installs (no team) are refused.
 */
function installationStore(env: Env): InstallationStore<SlackOAuthEnv> {
  const teamOf = (query: InstallationStoreQuery) => query.teamId ?? "";
  return {
    async save(installation: Installation) {
      if (!installation.team_id || installation.is_enterprise_install) throw new Error("org-wide install");
      await workspaceObject(env, installation.team_id).install(
        {
          teamId: installation.team_id,
          teamName: null,
          appId: installation.app_id,
          installerUserId: installation.user_id,
          botUserId: installation.bot_user_id ?? "",
          botToken: installation.bot_token ?? "",
          scopes: installation.bot_scopes ?? [],
          refreshToken: installation.bot_refresh_token ?? null,
          expiresAt: installation.bot_token_expires_at ? installation.bot_token_expires_at * 1000 : null,
        },
        new Date().toISOString(),
      );
      forgetTeam(installation.team_id);
    },
    async findBotInstallation(query) {
      const credentials = await teamCredentials(env, teamOf(query));
      if (!credentials) return undefined;
      return {
        app_id: "",
        team_id: credentials.teamId,
        user_id: credentials.installerUserId,
        bot_token: credentials.botToken,
        bot_user_id: credentials.botUserId,
        bot_scopes: credentials.scopes,
      };
    },
    findUserInstallation: async () => undefined,
    deleteBotInstallation: (query) => purgeTeam(env, teamOf(query), new Date()),
    deleteUserInstallation: async () => {},
    deleteAll: (query) => purgeTeam(env, teamOf(query), new Date()),
    toAuthorize(): Authorize<SlackOAuthEnv> {
      return async (req) => {
        const credentials = await teamCredentials(env, req.context.teamId ?? "");
        if (!credentials) throw new Error("not installed");
        return {
          teamId: credentials.teamId,
          botToken: credentials.botToken,
          botId: "",
          botUserId: credentials.botUserId,
          botScopes: credentials.scopes,
        };
      };
    },
  };
}

const redirectUri = (config: Config, request: Request) =>
  config.install?.redirectUri ?? `${new URL(request.url).origin}${OAUTH_REDIRECT_PATH}`;

/**
 * slack-edge's callback exchanges the code through a client of its own, on slack.com, whatever
 * SLACK_API_URL says (and says nothing to a stand-in). So `beforeInstallation`, which runs
 * after slack-edge checked the state (cookie and single use) and the code's presence, does
 * the exchange through the bot's own client and answers the page itself.
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
  const { first } = await workspaceObject(env, teamId).install(
    {
      teamId,
      teamName: answer.team.name ?? null,
      appId: answer.app_id ?? "",
      installerUserId: answer.authed_user?.id ?? "",
      botUserId: answer.bot_user_id ?? "",
      botToken: answer.access_token ?? "",
      scopes: (answer.scope ?? "").split(",").filter(Boolean),
      refreshToken: answer.refresh_token ?? null,
      expiresAt: answer.expires_in ? Date.now() + answer.expires_in * 1000 : null,
    },
    new Date().toISOString(),
  );
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

const DENIED: Record<string, string> = {
  access_denied: "The install was cancelled on Slack's page, so nothing was installed.",
};

/** GET /slack/install and /slack/oauth_redirect, through slack-edge's SlackOAuthApp. */
export function installRoutes(config: Config, env: Env): { handle(request: Request): Promise<Response> } {
  const install = config.install;
  if (!install)
    return { handle: async () => html(failurePage("Add to Slack is not set up on this deployment."), 404) };
  const app = new SlackOAuthApp({
    env: {
      SLACK_SIGNING_SECRET: config.slackSigningSecret,
      SLACK_CLIENT_ID: install.clientId,
      SLACK_CLIENT_SECRET: install.clientSecret,
      SLACK_BOT_SCOPES: install.botScopes,
      SLACK_LOGGING_LEVEL: "ERROR",
    },
    installationStore: installationStore(env),
    stateStore: stateStore(env),
    routes: { events: "/slack/events", oauth: { start: INSTALL_PATH, callback: OAUTH_REDIRECT_PATH } },
    oauth: {
      stateCookieName: STATE_COOKIE,
      // slack-edge's URL names slack.com and leaves the redirect out: both come from config here.
      start: async ({ authorizeUrl, stateValue, request }) => {
        const generated = new URL(authorizeUrl);
        const target = new URL(install.oauthUrl);
        for (const [name, value] of generated.searchParams) target.searchParams.set(name, value);
        target.searchParams.set("redirect_uri", redirectUri(config, request));
        const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
        return html(startPage(target.toString()), 200, {
          "set-cookie": `${STATE_COOKIE}=${stateValue}; Path=/; HttpOnly; SameSite=Lax; Max-Age=600${secure}`,
          "cache-control": "no-store",
        });
      },
      onStateValidationError: async () => html(failurePage(STATE_REFUSED), 400),
      onFailure: async ({ request, reason }) => {
        const error = new URL(request.url).searchParams.get("error");
        return html(
          failurePage(
            (error && DENIED[error]) ??
              (error
                ? `Slack ended the install (${error.slice(0, 60)}).`
                : `The install did not finish (${reason.code}).`),
          ),
          400,
        );
      },
      beforeInstallation: ({ request }) =>
        exchange(config, env, request).catch((error: unknown) => {
          console.error(`install failed: ${describeError(error)}`);
          return html(failurePage("Saving the install failed. Start again in a minute."), 500);
        }),
    },
  });
  return {
    handle: (request) => app.run(request),
  };
}
