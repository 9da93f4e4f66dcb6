import { type Bot, type StoredMessage, signingSecret } from "../../dev/in-workerd/bot.ts";
import { slackSignature } from "../../dev/slack/sign.ts";

/** The doctor's checks of one workspace's deployment, in the order it says them. */
export const DOCTOR_CHECKS = [
  "signing secret",
  "Slack token",
  "Slack scopes",
  "Decipher key",
  "channels",
  "distribution",
  "clocks",
  "daily budget",
] as const;

/** What `userId` sees from the bot in #alerts last: `/decipher doctor`'s reply replaces its ack. */
export async function lastReplyTo(bot: Bot, userId: string): Promise<StoredMessage> {
  const mine = (await bot.messages("C0ALERTS")).filter(
    (m) => m.ephemeral && (m as StoredMessage & { visible_to?: string }).visible_to === userId,
  );
  return mine.at(-1) as StoredMessage;
}

/** `GET /health/deep` as `npm run doctor` sends it: a path (this one, unless a test says) signed like a Slack request. */
export async function deepRequest(secret = signingSecret, signedPath = "/health/deep"): Promise<Request> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  return new Request("http://bot.test/health/deep", {
    headers: {
      "x-slack-request-timestamp": timestamp,
      "x-slack-signature": await slackSignature(secret, timestamp, signedPath),
    },
  });
}
