/**
 * The peer for `npm run bench`: `/sessions` and `/decipher help` as a Bolt for JavaScript app on
 * Node, with Bolt's default HTTPReceiver and its signature check. `/sessions` answers as the
 * Worker does: ack with the same ephemeral text, then the same vendor calls (one search, the
 * timelines of the sessions that have one) through the project's vendor client, then the same
 * Block Kit reply through `response_url` (Bolt's `respond`). `/decipher` parses its text with the
 * project's parser and acks `help` with the project's help message, all inside the ack, as the
 * Worker does. Only pure modules of src/ are imported, so what differs
 * is the framework and the runtime. Env: PORT, SLACK_SIGNING_SECRET, SLACK_BOT_TOKEN,
 * SLACK_API_URL, DECIPHER_API_URL, DECIPHER_API_KEY. Prints `listening <port>` when ready.
 * The bench runs the esbuild bundle of this file (bench/peer/bolt-bundle.ts), as one would deploy it.
 */
import { App, LogLevel } from "@slack/bolt";
import { createVendorClient } from "../../src/decipher/vendor-client.ts";
import { parseDecipherCommand } from "../../src/handlers/commands/decipher-command.ts";
import { describeSessionSearch, parseSessionSearch } from "../../src/handlers/commands/sessions-query.ts";
import { encodeMoreValue } from "../../src/messages/button-values.ts";
import { decipherHelpMessage, errorMessage, usageMessage } from "../../src/messages/help.ts";
import { noSessionsMessage, sessionsMessage } from "../../src/messages/sessions-reply.ts";
import { vendorErrorSentence } from "../../src/messages/vendor-error-message.ts";
import { CommandInputError } from "../../src/model/command-input-error.ts";
import { mapLimit } from "../../src/util/map-limit.ts";

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const vendor = createVendorClient({
  baseUrl: env("DECIPHER_API_URL"),
  apiKey: env("DECIPHER_API_KEY"),
  retry: { attempts: 2 }, // as the Worker's interactive handlers
});
const appUrl = "https://app.getdecipher.com";

/** The search, then the timelines (3 in flight), then the cards: the Worker's reply, built Bolt's way. */
async function sessionsReply(query: ReturnType<typeof parseSessionSearch>) {
  const page = await vendor.listSessions({ ...query.filter, limit: 5 });
  const subject = describeSessionSearch(query);
  if (page.data.length === 0) return noSessionsMessage(subject);
  const withTimeline = page.data.filter((s) => s.hasTimeline);
  const fetched = await mapLimit(withTimeline, 3, (s) => vendor.getSessionTimeline(s.id).catch(() => null));
  const more =
    page.hasMore && page.nextCursor
      ? encodeMoreValue({ query: query.filter, cursor: page.nextCursor, page: 2 })
      : null;
  return sessionsMessage({
    sessions: page.data,
    timelines: Object.fromEntries(withTimeline.map((s, i) => [s.id, fetched[i] ?? null])),
    subject,
    appUrl,
    now: new Date(),
    more,
  });
}

const app = new App({
  signingSecret: env("SLACK_SIGNING_SECRET"),
  token: env("SLACK_BOT_TOKEN"),
  clientOptions: { slackApiUrl: env("SLACK_API_URL") },
  logLevel: LogLevel.ERROR,
});

app.command("/sessions", async ({ command, ack, respond }) => {
  let query: ReturnType<typeof parseSessionSearch>;
  try {
    query = parseSessionSearch(command.text, new Date());
  } catch (error) {
    // Bad input is answered in the ack alone, with usage, as the Worker does.
    if (error instanceof CommandInputError)
      return ack({ response_type: "ephemeral", ...usageMessage(error.message) });
    throw error;
  }
  await ack({ response_type: "ephemeral", text: `Looking up sessions for ${describeSessionSearch(query)}…` });
  const message = await sessionsReply(query).catch((error: unknown) =>
    errorMessage(vendorErrorSentence(error)),
  );
  await respond({ response_type: "ephemeral", replace_original: true, ...message });
});

app.command("/decipher", async ({ command, ack }) => {
  try {
    const parsed = parseDecipherCommand(command.text);
    // Only `help` is benchmarked; the rest would need the Worker's Durable Objects.
    if (parsed.action === "help") return ack({ response_type: "ephemeral", ...decipherHelpMessage() });
    return ack({
      response_type: "ephemeral",
      text: "Only `/decipher help` is served by this benchmark app.",
    });
  } catch (error) {
    if (error instanceof CommandInputError)
      return ack({ response_type: "ephemeral", ...errorMessage(error.message) });
    throw error;
  }
});

const port = Number(env("PORT"));
// No top-level await: the bench runs this file bundled as CommonJS (bench/peer/bolt-bundle.ts).
app.start({ port, host: "127.0.0.1" }).then(() => console.log(`listening ${port}`));
