import { describe, expect, it } from "vitest";
import { type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { subscribedBot } from "../helpers/emulator.ts";

const topLevel = (messages: StoredMessage[]) => messages.filter((m) => !m.thread_ts || m.thread_ts === m.ts);

async function collectionAlert() {
  const { bot, org } = await subscribedBot("subscribe collection 501 growth:1");
  await org.grow(501, 3);
  await bot.cron();
  const alert = topLevel(await bot.posted()).at(-1) as StoredMessage;
  const lastEphemeral = async () => (await bot.messages()).filter((m) => m.ephemeral).at(-1) as StoredMessage;
  return { bot, org, alert, lastEphemeral };
}

const imagesOf = (message: StoredMessage) =>
  (message.blocks ?? []).filter((b) => b.type === "image").map((b) => String(b.image_url));
/** The path of a screenshot URL without its signature: the same picture, fetched again. */
const picture = (url: string) => new URL(url).pathname;

describe("a collection alert's buttons lead somewhere", () => {
  it("'…and 2 more new sessions' has a button that lists them with the full AI summary, just to the clicker", async () => {
    const { bot, alert, lastEphemeral } = await collectionAlert();
    expect(visibleText(alert)).toMatch(/…and 2 more new sessions since <!date\^/);
    expect((await bot.click(alert, "collection_sessions")).status).toBe(200);
    const answer = await lastEphemeral();
    const text = visibleText(answer);
    expect(text).toMatch(/3 sessions new to this collection since <!date\^/);
    expect(text).toContain("AI summary of the representative issue");
    expect(new Set(text.match(/\/sessions\/[0-9a-f-]{36}/g)).size).toBe(3);
    expect(topLevel(await bot.posted())).toHaveLength(1);
  });

  it("counts every new session it does not show: grown by 6, one shown, '…and 5 more'", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501 growth:1");
    await org.grow(501, 6);
    await bot.cron();
    const alert = visibleText(topLevel(await bot.posted()).at(-1) as StoredMessage);
    expect(alert).toMatch(/sessions \(\+6 since <!date\^/);
    expect(alert).toMatch(/…and 5 more new sessions since <!date\^/);
  });

  it("links the collection in Decipher", async () => {
    const { alert } = await collectionAlert();
    expect(visibleText(alert)).toMatch(
      /<https:\/\/app\.decipher\.test\/monitoring\/issue-collections\/501\|/,
    );
  });

  it("Screenshots of the session the alert shows answers with that error screenshot, fetched fresh, at the same session time", async () => {
    const { bot, alert, lastEphemeral } = await collectionAlert();
    const shown = imagesOf(alert);
    expect(shown).toHaveLength(1);
    await bot.click(alert, "session_screenshots");
    const answer = await lastEphemeral();
    expect(visibleText(answer)).toContain("Error screenshot");
    expect(imagesOf(answer).map(picture)).toContain(picture(shown[0] as string));
    // The session's time reads the same in the alert and in the answer.
    const when = (m: StoredMessage) =>
      visibleText(m).match(/\/sessions\/[0-9a-f-]{36}\|[^>]+>\*[^<]*(<!date\^\d+)/)?.[1];
    expect(when(answer)).toBeDefined();
    expect(when(answer)).toBe(when(alert));
  });
});

describe("a collection's acknowledgement belongs to one alert", () => {
  it("the alert of a regression is posted with nobody looking, though the earlier alert was acknowledged", async () => {
    const { bot, org, alert } = await collectionAlert();
    await bot.click(alert, "triage_acknowledge");
    expect(visibleText((await bot.messages()).find((m) => m.ts === alert.ts) as StoredMessage)).toMatch(
      /is looking/,
    );
    await org.resolve(501, true);
    await bot.cron();
    await org.resolve(501, false);
    await org.grow(501, 3);
    await bot.cron();
    const alerts = topLevel(await bot.posted());
    expect(alerts).toHaveLength(2);
    expect(visibleText(alerts[1] as StoredMessage)).not.toMatch(/looking/);
  });
});

describe("a collection alert's counts line up after it grows", () => {
  it("Show new sessions counts as of the click: the collection grew since the alert, and the answer says how many are new now", async () => {
    const { bot, org, alert, lastEphemeral } = await collectionAlert();
    expect(visibleText(alert)).toMatch(/…and 2 more new sessions/);
    // Four more sessions join before anyone clicks, and no poll has edited the alert yet.
    await org.grow(501, 4);
    await bot.click(alert, "collection_sessions");
    const answer = visibleText(await lastEphemeral());
    expect(answer).toMatch(/5 of 7 sessions new to this collection since <!date\^/);
    expect(answer).toMatch(/…and 2 more new sessions: /);
  });

  it("the edited parent's '…and N more' is its current growth, and Show new sessions counts the same sessions", async () => {
    const { bot, org, alert, lastEphemeral } = await collectionAlert();
    expect(visibleText(alert)).toMatch(/…and 2 more new sessions/);
    await org.grow(501, 4);
    await bot.cron();
    const parent = (await bot.messages()).find((m) => m.ts === alert.ts) as StoredMessage;
    const text = visibleText(parent);
    const grown = /sessions \(\+(\d+) since <!date\^/.exec(text)?.[1];
    expect(grown).toBe("7");
    expect(text).toMatch(/…and 6 more new sessions since/);
    await bot.click(parent, "collection_sessions");
    const answer = visibleText(await lastEphemeral());
    expect(answer).toMatch(/5 of 7 sessions new to this collection since <!date\^/);
    expect(answer).toMatch(
      /…and 2 more new sessions: <https:\/\/app\.decipher\.test\/monitoring\/issue-collections\/501\|see them in Decipher>/,
    );
    expect(answer).not.toMatch(/of more|…and more/);
  });

  it("a growth reply in the thread names its new sessions in a line each, and Show new sessions lists their cards", async () => {
    const { bot, org, alert, lastEphemeral } = await collectionAlert();
    await org.grow(501, 5);
    await bot.cron();
    const reply = (await bot.posted()).filter((m) => m.thread_ts === alert.ts && m.ts !== alert.ts).at(-1);
    const text = visibleText(reply as StoredMessage);
    expect(text).toMatch(/Grew again: \d+ → \d+ sessions \(\+5 since <!date\^/);
    expect(text.match(/\/sessions\/[0-9a-f-]{36}\|/g)).toHaveLength(3);
    expect(text).toMatch(/5 new sessions since <!date\^/);
    await bot.click(reply as StoredMessage, "collection_sessions");
    const answer = visibleText(await lastEphemeral());
    expect(answer).toMatch(/sessions new to this collection since <!date\^/);
    expect(new Set(answer.match(/\/sessions\/[0-9a-f-]{36}/g)).size).toBe(5);
  });
});
