import { type Params, stringParam } from "./api-params.ts";
import { slackError } from "./content.ts";
import type { Method, MethodBody } from "./method-types.ts";
import type { AssistantThread } from "./standin-types.ts";
import type { Workspace } from "./workspaces.ts";

// `assistant.threads.*`: Slack's assistant pane (Agents & AI apps), as its method pages have
// them (docs/slack-platform.md, "The assistant pane"): each names a thread of the person's DM
// with the app by `channel_id` and `thread_ts`, answers `channel_not_found` and
// `invalid_thread_ts` for one it does not know, and needs `assistant:write` (setStatus takes
// `chat:write` as well).

/** "A two minute timeout applies, which will cause the status to be removed if no message has been sent." */
export const STATUS_TIMEOUT_MS = 2 * 60 * 1000;
/** "Use this method to set up to four suggested prompts." */
const MAX_PROMPTS = 4;

export const threadKey = (channel: string, threadTs: string) => `${channel}:${threadTs}`;

/** The scope check these methods make; the stand-in checks no other method's (docs/slack-platform.md). */
function missingScope(ws: Workspace, accepted: readonly string[]): MethodBody | null {
  if (accepted.some((s) => ws.scopes.includes(s))) return null;
  return slackError("missing_scope", { needed: accepted[0], provided: ws.scopes.join(",") });
}

/** The thread a call names, or Slack's error for it. */
function threadOf(ws: Workspace, params: Params, accepted: readonly string[]): AssistantThread | MethodBody {
  const scope = missingScope(ws, accepted);
  if (scope) return scope;
  const channel = stringParam(params, "channel_id");
  if (!channel || !ws.channels.has(channel)) return slackError("channel_not_found");
  const threadTs = stringParam(params, "thread_ts");
  const thread = threadTs ? ws.assistantThreads.get(threadKey(channel, threadTs)) : undefined;
  return thread ?? slackError("invalid_thread_ts");
}

const isThread = (v: AssistantThread | MethodBody): v is AssistantThread => !("ok" in v);

/** A JSON-valued argument, sent as a form field (text) or in a JSON body (the value). */
function jsonParam(params: Params, key: string): unknown {
  const raw = params[key];
  if (typeof raw !== "string") return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

type Prompt = { title: string; message: string };
const isPrompt = (p: unknown): p is Prompt =>
  typeof p === "object" &&
  p !== null &&
  typeof (p as Prompt).title === "string" &&
  (p as Prompt).title !== "" &&
  typeof (p as Prompt).message === "string" &&
  (p as Prompt).message !== "";

/**
 * Each prompt "should be supplied with its title and message attribute", up to four. What Slack
 * answers to a fifth, or to a prompt without one of them, no page says: `invalid_arguments`,
 * Slack's answer to arguments it cannot take, is our guess.
 */
const setSuggestedPrompts: Method = ({ ws, params }) => {
  const thread = threadOf(ws, params, ["assistant:write"]);
  if (!isThread(thread)) return thread;
  const prompts = jsonParam(params, "prompts");
  if (
    !Array.isArray(prompts) ||
    prompts.length === 0 ||
    prompts.length > MAX_PROMPTS ||
    !prompts.every(isPrompt)
  )
    return slackError("invalid_arguments");
  thread.prompts = prompts.map((p) => ({ title: p.title, message: p.message }));
  const title = stringParam(params, "title");
  thread.promptsTitle = title ?? null;
  return { ok: true };
};

/** An empty status clears it (Bolt's `setStatus("")`); the app's next message in the thread clears it too. */
const setStatus: Method = ({ ws, params, nextTs }) => {
  const thread = threadOf(ws, params, ["chat:write", "assistant:write"]);
  if (!isThread(thread)) return thread;
  const status = stringParam(params, "status");
  if (status === undefined) return slackError("invalid_arguments");
  thread.status = status === "" ? null : { text: status, at: Date.now(), sinceTs: nextTs() };
  return { ok: true };
};

const setTitle: Method = ({ ws, params }) => {
  const thread = threadOf(ws, params, ["assistant:write"]);
  if (!isThread(thread)) return thread;
  const title = stringParam(params, "title");
  if (!title) return slackError("invalid_arguments");
  thread.title = title;
  return { ok: true };
};

export const ASSISTANT_METHODS: Record<string, Method> = {
  "assistant.threads.setSuggestedPrompts": setSuggestedPrompts,
  "assistant.threads.setStatus": setStatus,
  "assistant.threads.setTitle": setTitle,
};

/**
 * The status line as the pane shows it now: gone once the app posted in the thread after it was
 * set, or two minutes after it was set.
 */
export function liveStatus(ws: Workspace, thread: AssistantThread, now = Date.now()): string | null {
  const { status } = thread;
  if (!status || now - status.at > STATUS_TIMEOUT_MS) return null;
  const answered = ws.messages.some(
    (m) =>
      m.channel === thread.channel &&
      m.threadTs === thread.threadTs &&
      m.botId !== undefined &&
      Number(m.ts) > Number(status.sinceTs),
  );
  return answered ? null : status.text;
}
