// Run the Slack stand-in on its own for the local sandbox:
//   PORT=8790 BOT_URL=http://127.0.0.1:8787/slack/events SLACK_SIGNING_SECRET=… SLACK_BOT_TOKEN=xoxb-… \
//     node dev/slack/standin-main.ts
import { startSlackStandIn } from "./standin-server.ts";

const env = process.env;
const standIn = await startSlackStandIn({
  port: Number(env.PORT ?? 8790),
  host: env.HOST ?? "127.0.0.1",
  botUrl: env.BOT_URL,
  signingSecret: env.SLACK_SIGNING_SECRET,
  botToken: env.SLACK_BOT_TOKEN,
  // The sandbox behaves like Slack, throttling included; SLACK_RATE_LIMIT=off disables it.
  rateLimit: env.SLACK_RATE_LIMIT === "off" ? null : { perSecond: 1, burst: 3 },
});

console.log(`Slack stand-in on ${standIn.url} (Web API ${standIn.apiUrl})`);
if (!env.BOT_URL)
  console.log("BOT_URL not set: /__slack/commands and /__slack/actions will refuse to deliver");

const stop = async () => {
  await standIn.close();
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
