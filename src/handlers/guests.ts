import { GUEST } from "../messages/outsiders.ts";
import { isGuest } from "../slack-api/workspace-admin.ts";
import { isRecord } from "../util/checks.ts";
import { withDeadline } from "../util/deadline.ts";
import type { Deps } from "../wiring.ts";
import { AUTH_TEST_WAIT_MS } from "./authorize.ts";
import type { AnyRequest, LeanSlackApp } from "./lean-slack-app.ts";
import { refusing } from "./outsiders.ts";

/**
 * Slack guests (multi-channel and single-channel, `users.info`'s `is_restricted`), closed by
 * default: Slack already keeps a guest to the channels they were invited to, and they read the
 * alerts posted there like everyone in them. The bot answers them nothing else, since a
 * command, a mention, a link or Home reads the organization's Decipher data beyond those
 * channels (sessions by email, any test), and a button changes what the channel gets for
 * everyone: one sentence instead (docs/privacy.md, "Who can change what").
 */

/** The events a person makes the bot answer; their `user` is who asked. */
const PERSON_EVENTS = new Set(["app_mention", "link_shared", "app_home_opened", "message"]);

/** Who asked, for the requests that answer a person: a command, an interaction, those events. */
export function askingPerson(body: Record<string, unknown>): string | null {
  const id = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);
  if (typeof body.command === "string") return id(body.user_id);
  if (body.type === "event_callback") {
    const event = isRecord(body.event) ? body.event : {};
    // The assistant pane's new thread names its person inside `assistant_thread`.
    if (event.type === "assistant_thread_started")
      return isRecord(event.assistant_thread) ? id(event.assistant_thread.user_id) : null;
    return PERSON_EVENTS.has(String(event.type)) ? id(event.user) : null;
  }
  return isRecord(body.user) ? id(body.user.id) : null;
}

/**
 * Ten minutes per isolate and person, as auth.test is (src/handlers/authorize.ts): a person's
 * requests do not each wait for users.info. Keyed by the bot token, so two workspaces (or two
 * tests) never share an answer. A member made a guest is refused within ten minutes.
 */
const TTL_MS = 10 * 60 * 1000;
const known = new Map<string, { guest: boolean; until: number }>();

async function guestNow(deps: Deps, userId: string, now = Date.now()): Promise<boolean> {
  const key = `${deps.config.slackBotToken}:${userId}`;
  const hit = known.get(key);
  if (hit && hit.until > now) return hit.guest;
  // Slack slow or failing: answered as a member, not remembered (the next request asks again),
  // as the outsider check goes on without auth.test (docs/slack-platform.md).
  const guest = await withDeadline(isGuest(deps.slack, userId), AUTH_TEST_WAIT_MS, () => null);
  if (guest === null) return false;
  if (known.size > 5_000) known.clear();
  known.set(key, { guest, until: now + TTL_MS });
  return guest;
}

/** Registered after the outsider check, before every other listener (src/handlers/slack-app.ts). */
export function refuseGuests(app: LeanSlackApp, deps: Deps): void {
  const { ack, lazy } = refusing(deps, GUEST, "a guest");
  app.first(
    async (req: AnyRequest) => {
      const person = askingPerson(req.body);
      const guest = person !== null && (await guestNow(deps, person));
      if (guest) console.info("refused a request from a guest of the workspace");
      return guest;
    },
    ack,
    lazy,
  );
}
