import { type Bot, visibleText } from "../../dev/in-workerd/bot.ts";
import type { eventsOf } from "./events.ts";

/**
 * The three places a person asks the bot in words (#39), each returning the text of the one
 * answer the bot posted for the question: a mention in #alerts (answered in its thread), a DM
 * with the app, and a thread of Slack's assistant pane (in that DM, opened first).
 */
export type Surface = "mention" | "DM" | "assistant pane";
export const SURFACES: readonly Surface[] = ["mention", "DM", "assistant pane"];

type Events = ReturnType<typeof eventsOf>;

export function askers(bot: Bot, events: Events, userId = "U0ALICE") {
  const dm = `D${userId.slice(1)}`;
  const one = (answers: { text?: string; blocks?: unknown[] }[]) => {
    if (answers.length !== 1) throw new Error(`expected one answer, got ${answers.length}`);
    return visibleText(answers[0] ?? {});
  };
  let pane: Promise<{ channel: string; threadTs: string }> | null = null;
  const ask: Record<Surface, (question: string) => Promise<string>> = {
    async mention(question) {
      const { message } = await events.say("C0ALERTS", `@Decipher ${question}`, { userId });
      return one((await bot.messages("C0ALERTS")).filter((m) => m.bot_id && m.thread_ts === message.ts));
    },
    async DM(question) {
      const { message } = await events.say(dm, question, { userId });
      return one(
        (await bot.messages(dm)).filter((m) => m.bot_id && Number(m.ts) > Number(message.ts) && !m.thread_ts),
      );
    },
    async "assistant pane"(question) {
      pane ??= events.openPane(userId);
      const thread = await pane;
      const { message } = await events.say(thread.channel, question, { userId, threadTs: thread.threadTs });
      const [now] = (await events.pane(userId)).filter((t) => t.threadTs === thread.threadTs);
      return one((now?.messages ?? []).filter((m) => m.bot_id && Number(m.ts) > Number(message.ts)));
    },
  };
  return ask;
}
