import type { ChatUnfurlRequest, LinkSharedEvent } from "slack-edge";
import { sessionUnfurl } from "../../messages/session-unfurl.ts";
import { testUnfurl } from "../../messages/test-unfurl.ts";
import type { UnfurlBlock } from "../../messages/unfurl-blocks.ts";
import type { EventGate } from "../../objects/event-gate-client.ts";
import { classifySlackFailure } from "../../slack-api/slack-errors.ts";
import type { Deps } from "../../wiring.ts";
import { type DecipherLink, decipherLinks } from "./decipher-links.ts";
import { lookupSession } from "./session-lookup.ts";
import { lookupTest } from "./test-lookup.ts";

const SOURCES = ["composer", "conversations_history"] as const;

/** The blocks for one link, or null to leave it to Slack's own preview. */
async function unfurlOf(link: DecipherLink, deps: Deps, gate: EventGate): Promise<UnfurlBlock[] | null> {
  switch (link.kind) {
    case "session": {
      const lookup = await gate.cached(`session:${link.sessionId}`, () =>
        lookupSession(deps.vendor, link.sessionId),
      );
      return lookup
        ? sessionUnfurl({ url: link.url, sessionId: link.sessionId, lookup, now: deps.now() })
        : null;
    }
    case "test": {
      const lookup = await gate.cached(`test:${link.testId}`, () => lookupTest(deps.vendor, link.testId));
      return lookup ? testUnfurl({ url: link.url, lookup }) : null;
    }
    case "run": {
      const lookup = await gate.cached(`run:${link.testId}:${link.runId}`, () =>
        lookupTest(deps.vendor, link.testId, link.runId),
      );
      return lookup ? testUnfurl({ url: link.url, lookup }) : null;
    }
  }
}

/**
 * `link_shared` → one `chat.unfurl` with every Decipher link of the message that resolved.
 * Links that did not (unknown id, vendor error, wrong form, other domain) are left out, so
 * Slack shows its default preview; nothing resolved means no call at all.
 */
export async function handleLinkShared(event: LinkSharedEvent, deps: Deps, gate: EventGate): Promise<void> {
  const links = decipherLinks(
    (event.links ?? []).map((l) => l.url),
    deps.config.decipherAppUrl,
  );
  if (links.length === 0) return;
  const unfurls: Record<string, { blocks: UnfurlBlock[] }> = {};
  await Promise.all(
    links.map(async (link) => {
      const blocks = await unfurlOf(link, deps, gate).catch(() => null);
      if (blocks && blocks.length > 0) unfurls[link.url] = { blocks };
    }),
  );
  if (Object.keys(unfurls).length === 0) return;
  // Messages still being written in the composer have no ts yet: Slack names them by unfurl_id.
  const source = SOURCES.find((s) => s === event.source);
  const target: ChatUnfurlRequest =
    event.unfurl_id && source
      ? { unfurl_id: event.unfurl_id, source, unfurls }
      : { channel: event.channel, ts: event.message_ts, unfurls };
  try {
    await deps.slack.chat.unfurl(target);
  } catch (error) {
    console.warn(`chat.unfurl failed (${classifySlackFailure(error).code})`);
  }
}
