import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ConfigError, type Env, readConfig } from "../../src/config.ts";
import wranglerToml from "../../wrangler.toml?raw";

/** The problems readConfig names for these bindings, or none. */
function problemsOf(bindings: Partial<Env>): readonly string[] {
  try {
    readConfig({ ...env, ...bindings } as Env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe("a single-workspace bot token", () => {
  it("may be a rotating one (xoxe.xoxb-), as Slack issues once token rotation is on", () => {
    // https://docs.slack.dev/authentication/using-token-rotation: a rotating access token.
    const token = "xoxe.xoxb-1-MS0yLTExMTExMTExMTExLTIyMjIyMjIyMjIyMi1hYmNkZWY";
    expect(problemsOf({ SLACK_BOT_TOKEN: token })).toEqual([]);
    expect(readConfig({ ...env, SLACK_BOT_TOKEN: token } as Env).slackBotToken).toBe(token);
  });

  it("is still refused when it is no bot token, without echoing it", () => {
    for (const token of ["xoxp-1-user-token", "xoxe.xoxp-1-user-token", "xoxe-1-refresh-token"]) {
      const problems = problemsOf({ SLACK_BOT_TOKEN: token }).join(" ");
      expect(problems, token).toMatch(
        /SLACK_BOT_TOKEN must be a bot token starting with xoxb- \(or xoxe\.xoxb-/,
      );
      expect(problems).not.toContain(token);
    }
  });
});

describe("multi-workspace settings half set", () => {
  const multiSecrets = {
    SLACK_CLIENT_SECRET: "client-secret",
    ENCRYPTION_KEY: "dGVzdC1lbmNyeXB0aW9uLWtleS0zMi1ieXRlcy0hISE=",
  };

  it("fail loudly when SLACK_CLIENT_ID is gone, naming it and where it must live, not the single-workspace secrets", () => {
    // What a deploy leaves when SLACK_CLIENT_ID was set only in the dashboard (keep_vars is false).
    const problems = problemsOf({
      ...multiSecrets,
      SLACK_CLIENT_ID: "",
      SLACK_BOT_TOKEN: "",
      DECIPHER_API_KEY: "",
    });
    expect(problems).toEqual([
      expect.stringMatching(
        /^SLACK_CLIENT_SECRET and ENCRYPTION_KEY are set but SLACK_CLIENT_ID is not: .*wrangler\.toml \[vars\]/,
      ),
    ]);
  });

  it("fail loudly even when the single-workspace secrets are there too", () => {
    const problems = problemsOf({ SLACK_CLIENT_SECRET: "client-secret", SLACK_CLIENT_ID: "" });
    expect(problems.join(" ")).toMatch(/^SLACK_CLIENT_SECRET is set but SLACK_CLIENT_ID is not/);
    expect(problems.join(" ")).not.toContain("client-secret");
  });

  it("are whole once SLACK_CLIENT_ID is set", () => {
    expect(problemsOf({ ...multiSecrets, SLACK_CLIENT_ID: "1234.5678" })).toEqual([]);
  });
});

describe("wrangler.toml", () => {
  it("declares SLACK_CLIENT_ID among its vars, so a deploy keeps what is written there", () => {
    // Without keep_vars, `wrangler deploy` deletes every var the file does not declare
    // (wrangler's config schema, keep_vars); a var set in the dashboard alone is gone.
    const vars = /^\[vars\]\n((?:.*\n)*?)\n/m.exec(wranglerToml)?.[1] ?? "";
    expect(vars).toMatch(/^SLACK_CLIENT_ID = ""$/m);
    expect(wranglerToml).not.toMatch(/^keep_vars\s*=\s*true/m);
  });
});
