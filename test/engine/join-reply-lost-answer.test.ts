import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import { runIdsIn } from "../helpers/cases.ts";
import { channelWatching } from "../helpers/emulator.ts";

// Found by the chaos suite against the harsher stand-ins (BENCHMARKS.md, issue #34): a reply
// joining an open outage whose answer was lost must be settled by the outage it joins, which
// then knows it names the run; settled by anything else, the next join named the run again.

const MINUTE = 60_000;

describe("a reply joining an outage, its answer lost", () => {
  it("then another test fails: the next reply names only the new failure", async () => {
    const { bot, org, tests } = await channelWatching(2, { env: { SLACK_LOOKUP_AFTER_MS: "0" } });
    const a = tests[0] as { id: number };
    const b = tests[1] as { id: number };
    const t0 = Date.now();
    const at = (m: number) => new Date(t0 + m * MINUTE);
    await org.addRun(a.id, "failed");
    await org.addRun(b.id, "failed");
    await bot.cron(at(0));
    await org.addRun(b.id, "passed");
    await bot.cron(at(1));
    // B fails again within the outage's hour: a join reply, stored by Slack, its answer lost.
    const again = await org.addRun(b.id, "failed");
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron(at(2));
    await org.addRun(a.id, "passed");
    const next = await org.addRun(a.id, "failed");
    await bot.cron(at(3));
    await bot.cron(at(4));
    const posted = await bot.posted();
    expect(posted.filter((m) => runIdsIn(visibleText(m)).includes(again.id))).toHaveLength(1);
    expect(posted.filter((m) => runIdsIn(visibleText(m)).includes(next.id))).toHaveLength(1);
  });
});
