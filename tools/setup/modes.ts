// What each deployment mode needs from the person running `npm run setup`, and where they find
// it (docs/deploying-by-hand.md, "Two modes"): the secrets asked for, in order, after the Slack app exists.

export type Mode = "single" | "multi";

export type SecretAsk = { name: string; where: string; shape?: RegExp };

const SIGNING_SECRET: SecretAsk = {
  name: "SLACK_SIGNING_SECRET",
  where: "the app's Basic Information page → App Credentials → Signing Secret (Show)",
};

export const SECRETS: Record<Mode, SecretAsk[]> = {
  single: [
    SIGNING_SECRET,
    {
      name: "SLACK_BOT_TOKEN",
      where: "OAuth & Permissions → Install to Workspace, then the Bot User OAuth Token (xoxb-…)",
      shape: /^(xoxe\.)?xoxb-/,
    },
    {
      name: "DECIPHER_API_KEY",
      where: "Decipher → Settings → API keys (dcp_…)",
      shape: /^dcp_/,
    },
  ],
  multi: [
    SIGNING_SECRET,
    {
      name: "SLACK_CLIENT_SECRET",
      where: "the app's Basic Information page → App Credentials → Client Secret",
    },
  ],
};

/** The secret setup makes itself in multi-workspace mode, once: a new one would unseal nothing. */
export const GENERATED_SECRET = "ENCRYPTION_KEY";

export function nextSteps(mode: Mode, url: string): string[] {
  const origin = new URL(url).origin;
  const common = [
    "In a channel: /decipher help, then /decipher subscribe test <id>. For a private channel, /invite @Decipher first.",
    `Check the deployment any time: npm run doctor -- ${origin}`,
  ];
  if (mode === "single") return common;
  return [
    "Manage Distribution → Activate Public Distribution (docs/deploying-by-hand.md: The Slack Marketplace and Slack's terms).",
    `Each workspace installs at ${origin}/slack/install and connects its Decipher key on the app's Home tab.`,
    ...common,
  ];
}
