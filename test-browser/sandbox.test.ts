// The sandbox in a real browser: the whole stack (emulator, Slack stand-in + page, bot under
// `wrangler dev`) on free ports, driven through the page like a person would. Deterministic:
// no simulation, no cron timer — runs are created through the emulator's control API and
// polls are fired with the page's "Poll now". Screenshot in test-results/ on failure.
//
//   npm run test:browser        (the browser: CHROMIUM_PATH, a system Chromium, or @sparticuz/chromium
//                                — see find-browser.ts)
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { type Browser, chromium, type Page } from "playwright-core";
import { emulatorControl } from "../dev/emulator/control-client.ts";
import { sandboxExamples } from "../dev/sandbox-examples.ts";
import { slackAdmin } from "../dev/slack/admin-client.ts";
import { type Stack, startStack } from "../dev/stack.ts";
import { clock, cronAt, twoMinutesAhead } from "./cron-at.ts";
import { findBrowser } from "./find-browser.ts";

const RESULTS = new URL("../test-results/", import.meta.url);
const STEP_MS = 20_000;

let stack: Stack;
let browser: Browser;
let page: Page;

before(async () => {
  // Found (and, the first time, unpacked) before the stack starts: the unpack points TMPDIR
  // elsewhere for a moment, which the stack must not see.
  const found = await findBrowser();
  console.log(`browser: ${found.executablePath} (${found.source})`);
  [stack, browser] = await Promise.all([
    startStack({
      ports: { bot: 0, emulator: 0, slack: 0 },
      simulate: false,
      cronIntervalMs: null,
      quiet: true,
    }),
    chromium.launch({ executablePath: found.executablePath, args: found.args, headless: true }),
  ]);
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.setDefaultTimeout(STEP_MS);
  await page.goto(`${stack.pageUrl}#C0DEMO`);
});

after(async () => {
  const pid = stack?.workerdPid();
  await browser?.close().catch(() => {});
  await stack?.stop();
  if (pid) {
    // The whole process group went with stop(): workerd must not outlive the test.
    await new Promise((r) => setTimeout(r, 200));
    const alive = existsSync(`/proc/${pid}`) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
    assert.equal(alive, false, `workerd ${pid} still running after stop()`);
  }
});

/** A screenshot of the page as it is now, for the person checking what the steps showed. */
async function shoot(name: string) {
  mkdirSync(RESULTS, { recursive: true });
  await page.screenshot({ path: new URL(`sandbox-${name}.png`, RESULTS).pathname });
}

/** Run a step; on failure keep a screenshot of the page for the person reading CI output. */
async function step(name: string, fn: () => Promise<void>) {
  try {
    await fn();
  } catch (error) {
    mkdirSync(RESULTS, { recursive: true });
    const file = new URL(`sandbox-${name.replace(/\W+/g, "-")}.png`, RESULTS);
    await page.screenshot({ path: file.pathname, fullPage: false }).catch(() => {});
    throw new Error(`step "${name}" failed (screenshot ${file.pathname}): ${String(error)}`, {
      cause: error,
    });
  }
}

async function command(line: string) {
  await page.fill("#composer", line);
  await page.press("#composer", "Enter");
}

/** A run of test 102 in the demo org, finished with the given outcome now. */
async function addRun(status: "passed" | "failed", oneLineSummary: string) {
  await emulatorControl(stack.emulatorUrl)
    .org(stack.apiKey)
    .addRun(102, status, { oneLineSummary, failedSteps: 2, totalSteps: 9 });
}

/** How many chat.update calls the bot has made: a triage click edits the alert's parent. */
async function parentUpdates(): Promise<number> {
  return (await slackAdmin(stack.slackUrl).calls(stack.botToken, "chat.update")).length;
}

const messages = () => page.locator("#messages .msg");
const sessionCards = () =>
  messages()
    .filter({ has: page.locator(".bk-button", { hasText: /^Timeline$/ }) })
    .last();

test("the sandbox page: sessions, timeline, subscribe, alert, its thread and triage", async () => {
  await step("page loads", async () => {
    await page.locator("#channel-title", { hasText: "decipher-demo" }).waitFor();
    await page.locator(".live", { hasText: "live" }).waitFor();
  });

  await step("sessions", async () => {
    await command("/sessions jane@acme.com");
    // "Looking up sessions…" comes first; the answer replaces nothing, it is a second message.
    const card = sessionCards();
    await card.waitFor();
    assert.match((await card.textContent()) ?? "", /jane@acme\.com/);
    assert.match((await card.locator(".eph-note").textContent()) ?? "", /Only visible to you/);
  });

  await step("timeline", async () => {
    await sessionCards()
      .locator(".bk-button", { hasText: /^Timeline$/ })
      .first()
      .click();
    const timeline = messages().filter({ has: page.locator(".bk-header", { hasText: "Session timeline" }) });
    await timeline.first().waitFor();
    assert.ok((await timeline.first().locator("a", { hasText: "Open the full timeline" }).count()) > 0);
  });

  // Every card has its own Timeline, Clicks and Share: a click acts on its own card's session.
  await step("second card's timeline", async () => {
    const rows = sessionCards()
      .locator(".bk-actions")
      .filter({ has: page.locator(".bk-button", { hasText: /^Timeline$/ }) });
    assert.ok((await rows.count()) >= 2, "the demo user has two sessions with a timeline");
    const replayUrl = (row: number) =>
      rows.nth(row).locator(".bk-link-button", { hasText: "Watch replay" }).getAttribute("title");
    const [first, second] = [await replayUrl(0), await replayUrl(1)];
    assert.ok(second && first !== second, "two cards, two sessions");
    await rows
      .nth(1)
      .locator(".bk-button", { hasText: /^Timeline$/ })
      .click();
    const answer = messages()
      .filter({ has: page.locator(".bk-header", { hasText: "Session timeline" }) })
      .filter({ has: page.locator(`a[href="${second}"]`) });
    await answer.first().waitFor();
    await answer.first().scrollIntoViewIfNeeded();
    assert.equal(
      await answer.first().locator(`a[href="${first}"]`).count(),
      0,
      "the answer names the first card",
    );
    await shoot("second-card-timeline");
  });

  await step("emoji in colour", async () => {
    // The page's emoji font (twemoji-colr-font, served by the stand-in) draws 🟩 and 🟥 in
    // colour, as Slack does, in a browser that has no emoji font of its own.
    const pixels = await page.evaluate(async () => {
      await document.fonts.load('32px "Sandbox Emoji"', "🟩🟥");
      const canvas = document.createElement("canvas");
      canvas.width = 80;
      canvas.height = 40;
      const ctx = canvas.getContext("2d");
      if (!ctx) return null;
      ctx.font = '32px "Sandbox Emoji"';
      ctx.fillText("🟩🟥", 2, 34);
      const d = ctx.getImageData(0, 0, 80, 40).data;
      let green = 0;
      let red = 0;
      for (let i = 0; i < d.length; i += 4) {
        const [r = 0, g = 0, b = 0, a = 0] = [d[i], d[i + 1], d[i + 2], d[i + 3]];
        if (a > 200 && g > 150 && r < 160 && b < 120) green++;
        if (a > 200 && r > 180 && g < 90 && b < 110) red++;
      }
      return { loaded: document.fonts.check('32px "Sandbox Emoji"', "🟩"), green, red };
    });
    assert.ok(pixels?.loaded, "the emoji font loaded");
    assert.ok(
      (pixels?.green ?? 0) > 200 && (pixels?.red ?? 0) > 200,
      `emoji drawn in colour: ${JSON.stringify(pixels)}`,
    );
  });

  await step("subscribe", async () => {
    await command("/decipher subscribe test 102");
    const confirmation = messages().filter({ hasText: "Subscribed this channel to test Login with SSO" });
    await confirmation.waitFor();
    // The command's ephemeral ack was replaced through its response_url: Slack marks no "(edited)" there.
    assert.equal(await confirmation.locator(".eph-note").count(), 1, "the confirmation is ephemeral");
    assert.equal(await confirmation.locator(".edited").count(), 0, "a replaced ephemeral shows no (edited)");
  });

  const summary = "Sandbox browser test: SSO button did nothing";
  await step("failure alert", async () => {
    await addRun("failed", summary);
    await page.click("#poll-now");
    const alert = messages().filter({ hasText: "Test failed: Login with SSO" }).last();
    await alert.waitFor();
    assert.ok((await alert.textContent())?.includes(summary), "alert lacks the run's summary");
    assert.equal(await alert.locator(".eph-note").count(), 0, "an alert must be posted to the channel");
  });

  await step("thread", async () => {
    await addRun("failed", "Sandbox browser test: still broken");
    await page.click("#poll-now");
    const parent = messages()
      .filter({ hasText: "Login with SSO" })
      .filter({ has: page.locator(".replies") });
    await parent.last().locator(".replies").click();
    const thread = page.locator("#thread-messages .msg");
    await thread.filter({ hasText: "still broken" }).last().waitFor();
    await parent.last().locator(".edited").waitFor();
  });

  // The open alert of test 102 (the parent the thread hangs under) and its triage controls.
  const alertParent = () =>
    messages()
      .filter({ hasText: "Login with SSO" })
      .filter({ has: page.locator('[data-action-id="triage_acknowledge"]') })
      .last();

  await step("acknowledge", async () => {
    await alertParent().locator('.bk-button[data-action-id="triage_acknowledge"]').click();
    // The bot edits the parent in place: the status line names who is looking.
    await messages().filter({ hasText: "Login with SSO" }).filter({ hasText: "@alice is looking" }).waitFor();
  });

  await step("mute asks first", async () => {
    const before = await parentUpdates();
    await alertParent().locator('.bk-button[data-action-id="triage_mute"]').click();
    const dialog = page.locator("dialog.bk-confirm");
    await dialog.waitFor();
    assert.match(
      (await dialog.locator(".bk-confirm-title").textContent()) ?? "",
      /^Mute “Login with SSO” \(test 102\)\?$/,
    );
    assert.match((await dialog.textContent()) ?? "", /\/decipher subscribe test 102/);
    await dialog.locator(".bk-confirm-deny", { hasText: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    // Denied: nothing reached the bot, so the parent is not edited and nobody muted it.
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(await parentUpdates(), before, "a denied confirm must not send the click");
    assert.equal(await messages().filter({ hasText: "muted by" }).count(), 0);
  });

  await step("snooze", async () => {
    const menu = alertParent().locator('select.bk-select[data-action-id="triage_snooze"]');
    assert.deepEqual(
      (await menu.locator("option").allTextContents()).map((t) => t.trim()),
      ["😴 Snooze…", "for 1 h", "for 4 h", "for 24 h", "until it passes"],
    );
    const value = await menu.locator("option", { hasText: "until it passes" }).getAttribute("value");
    assert.ok(value, "the snooze option carries a value");
    await menu.selectOption(value);
    const snoozed = messages()
      .filter({ hasText: "Login with SSO" })
      .filter({ hasText: "snoozed by @alice until it passes" });
    await snoozed.waitFor();
    // A snoozed alert offers Unsnooze in place of the menu.
    await snoozed.locator('.bk-button[data-action-id="triage_unsnooze"]').waitFor();
  });

  await step("suggested link unfurls", async () => {
    // The page suggests a Decipher link the bot unfurls here: the sandbox's DECIPHER_APP_URL.
    const suggestion = page.locator("#suggestions button", { hasText: /\/tests\/101$/ });
    const link = await suggestion.textContent();
    assert.equal(link, `${stack.emulatorUrl}/tests/101`);
    await suggestion.click();
    await page.press("#composer", "Enter");
    const unfurl = messages()
      .filter({ hasText: link ?? "" })
      .last()
      .locator(".unfurl");
    await unfurl.filter({ hasText: "Checkout flow" }).waitFor();
    await shoot("suggested-link-unfurl");
  });

  await step("unfurl", async () => {
    const res = await fetch(`${stack.emulatorUrl}/api/v1/sessions?userEmail=jane%40acme.com&limit=20`, {
      headers: { Authorization: `Bearer ${stack.apiKey}` },
    });
    const { data } = (await res.json()) as { data: { id: string; url: string; hasTimeline: boolean }[] };
    const session = data.find((s) => s.hasTimeline);
    assert.ok(session, "the demo org has a session with a timeline");
    await command(`have a look at ${session.url}`);
    const unfurl = messages().filter({ hasText: "have a look at" }).last().locator(".unfurl");
    await unfurl.locator(".bk-button", { hasText: "Watch replay" }).waitFor();
    assert.match((await unfurl.textContent()) ?? "", /jane@acme\.com/);
    // The first click's screenshot loads from the emulator, which draws it.
    const picture = unfurl.locator(".bk-image img").first();
    await picture.scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0,
      await picture.elementHandle(),
    );
    assert.equal(await picture.evaluate((img) => (img as HTMLImageElement).naturalWidth), 480);
    await shoot("unfurl-screenshot");
  });

  await step("app home", async () => {
    await page.click("#home-link");
    const home = page.locator("#home");
    await home.locator(".bk-section", { hasText: "Login with SSO" }).waitFor();
    assert.match((await home.textContent()) ?? "", /decipher-demo/);
    // Home's times are Slack date tokens rendered for the reader, never the raw token.
    assert.doesNotMatch((await home.textContent()) ?? "", /!date\^/);
    assert.ok((await home.locator("time.date, a.date").count()) > 0, "Home shows at least one rendered date");
  });

  await step("find sessions", async () => {
    await page.locator("#home .bk-button", { hasText: "Find sessions" }).click();
    await page.locator("#modal-title", { hasText: "Find sessions" }).waitFor();
    await page.click("#modal-submit");
    await page
      .locator('#modal [data-error-for="email"]', { hasText: /one of email, user id or visited URL/ })
      .waitFor();
    await page.fill('#modal input[name="email"]', "jane@acme.com");
    await page.click("#modal-submit");
    await page.locator("#modal").waitFor({ state: "hidden" });
  });

  // Last, since a muted test stops alerting here.
  await step("mute when confirmed", async () => {
    await page.click('#channels a[data-channel="C0DEMO"]');
    await alertParent().locator('.bk-button[data-action-id="triage_mute"]').click();
    await page.locator("dialog.bk-confirm .bk-confirm-ok", { hasText: "Mute" }).click();
    const muted = messages()
      .filter({ hasText: "Login with SSO" })
      .filter({ hasText: /muted by @alice .*\/decipher subscribe test 102/ });
    await muted.waitFor();
    // A muted alert offers only Unmute.
    const controls = muted.locator("[data-action-id^=triage_]");
    assert.deepEqual(await controls.evaluateAll((els) => els.map((e) => e.getAttribute("data-action-id"))), [
      "triage_unmute",
    ]);
  });
});

/**
 * Sets the channel's digest two minutes ahead in `zone` and runs the bot's cron just after
 * that minute. Two zones 26 hours apart give two local dates minutes apart: the second digest
 * has two days of figures.
 */
async function digestIn(zone: string) {
  const due = twoMinutesAhead();
  await command(`/decipher digest ${clock(due, zone)} ${zone}`);
  await messages()
    .filter({ hasText: `Daily digest set for ${clock(due, zone)} ${zone}` })
    .waitFor();
  await cronAt(stack.botUrl, new Date(due.getTime() + 5_000));
}

test("the sandbox page: a digest with its charts and its table, laid out like Slack's", async () => {
  await page.click('#channels a[data-channel="C0DEMO"]');
  await step("subscribe", async () => {
    await command("/decipher subscribe test 101");
    await messages()
      .filter({ hasText: "Subscribed this channel to test" })
      .filter({ hasText: "101" })
      .waitFor();
    await command("/decipher subscribe collection 501");
    await messages().filter({ hasText: "Subscribed this channel to collection #501" }).waitFor();
  });

  const digests = () =>
    messages().filter({ has: page.locator(".bk-header", { hasText: "Daily Decipher digest" }) });
  await step("first digest: the tests as a table", async () => {
    await digestIn("Etc/GMT+12");
    const digest = digests().last();
    await digest.locator("table.bk-table").waitFor();
    const header = await digest.locator("table.bk-table tr").first().locator("th").allTextContents();
    assert.deepEqual(header, ["Test", "State", "Runs (24 h)", "Failures", "Pass rate"]);
    assert.equal(await digest.locator(".bk-chart").count(), 0, "one day of figures draws no chart");
  });

  await step("second local day: charts of sessions and pass rate per day", async () => {
    await digestIn("Etc/GMT-14");
    await digests().nth(1).waitFor();
    const digest = digests().last();
    const charts = digest.locator(".bk-chart");
    await charts.first().waitFor();
    assert.deepEqual(await charts.locator(".bk-chart-title").allTextContents(), [
      "New sessions per day, last 2 days",
      "Pass rate of this channel's tests, last 2 days",
    ]);
    assert.ok((await charts.first().locator("svg circle").count()) >= 2, "the line has a dot per day");
    assert.ok((await digest.locator("table.bk-table tr").count()) >= 2, "the table has a row per test");
    // Where a chart or the table is shown, its text alternative is not sent.
    assert.equal(await digest.locator(".bk-unsupported").count(), 0);
    mkdirSync(RESULTS, { recursive: true });
    await digest.screenshot({ path: new URL("sandbox-digest.png", RESULTS).pathname });
  });
});

/** What the page shows at `at` (`+1h`, `+1d`): the channel reloaded with its reading clock. */
async function readAt(at: string) {
  await page.goto(`${stack.pageUrl}?at=${encodeURIComponent(at)}#C0DEMO`);
  await page.locator(".live", { hasText: "live" }).waitFor();
  await messages().first().waitFor();
  await page.locator(`#reading-clock a.active[data-at="${at}"]`).waitFor();
}

/** Every image in the channel scrolled into view and settled: loaded, or said not to load. */
async function imagesSettled() {
  const images = page.locator("#messages img");
  for (let i = 0; i < (await images.count()); i++) {
    const img = images.nth(i);
    await img.scrollIntoViewIfNeeded();
    await page.waitForFunction((node) => (node as HTMLImageElement).complete, await img.elementHandle());
  }
  return images.evaluateAll((nodes) =>
    nodes.map((node) => {
      const img = node as HTMLImageElement;
      const fallback = img.closest("a")?.classList.contains("bk-img-fallback") ?? false;
      return { src: img.src, loaded: img.naturalWidth > 0, saysItFailed: fallback };
    }),
  );
}

/** The bot's text in the channel, with the rendered Slack date tokens taken out. */
const textOutsideDateTokens = () =>
  page.locator("#messages .msg-body").evaluateAll((bodies) =>
    bodies.map((body) => {
      const copy = body.cloneNode(true) as HTMLElement;
      for (const token of copy.querySelectorAll(".date")) token.remove();
      return copy.textContent ?? "";
    }),
  );

/** What a person reads at `at`: no frozen "ago", no raw token or entity, no broken image. */
async function readsTrueAt(at: string, frozen: RegExp) {
  await readAt(at);
  const note = (await page.locator("#reading-note").textContent()) ?? "";
  assert.match(note, /Only the page reads ahead — the bot and the emulator keep real time/);
  const page_ = (await page.locator("#messages").textContent()) ?? "";
  assert.doesNotMatch(page_, /<!date\^/, "a raw Slack date token");
  assert.doesNotMatch(page_, /&amp;|&lt;|&gt;/, "an HTML entity shown as text");
  for (const text of await textOutsideDateTokens()) {
    assert.doesNotMatch(text, /just now|\bago\b/i, `a relative time written into the message: ${text}`);
  }
  // Date tokens are rendered for the reading clock's moment, not the posting's.
  const tokens = await page.locator("#messages .msg-body .date").allTextContents();
  assert.ok(tokens.length > 0, "the alerts carry Slack date tokens");
  for (const token of tokens) assert.doesNotMatch(token, frozen, `a date token read too early: ${token}`);
  for (const image of await imagesSettled()) {
    assert.ok(image.loaded || image.saysItFailed, `a broken image: ${image.src}`);
  }
  return tokens;
}

test("the sandbox page read an hour and a day later: every alert still true", async () => {
  await page.click('#channels a[data-channel="C0DEMO"]');
  const demo = emulatorControl(stack.emulatorUrl).org(stack.apiKey);
  await step("a snoozed failure alert", async () => {
    await demo.addRun(101, "failed", {
      oneLineSummary: "Pay button greyed out",
      failedSteps: 1,
      totalSteps: 12,
    });
    await page.click("#poll-now");
    const alert = messages()
      .filter({ hasText: "Test failed: Checkout flow" })
      .filter({ has: page.locator('[data-action-id="triage_snooze"]') })
      .last();
    await alert.waitFor();
    await alert.locator('.bk-button[data-action-id="triage_acknowledge"]').click();
    await messages().filter({ hasText: "Checkout flow" }).filter({ hasText: "@alice is looking" }).waitFor();
    const menu = alert.locator('select.bk-select[data-action-id="triage_snooze"]');
    const value = await menu.locator("option", { hasText: "for 1 h" }).getAttribute("value");
    await menu.selectOption(value ?? "");
    await messages()
      .filter({ hasText: "Checkout flow" })
      .filter({ hasText: "snoozed by @alice until" })
      .waitFor();
  });

  await step("a collection alert", async () => {
    await demo.grow(501, 12);
    await page.click("#poll-now");
    await messages().filter({ hasText: "PaymentForm" }).filter({ hasNotText: "Subscribed" }).last().waitFor();
  });

  await page.setViewportSize({ width: 1280, height: 2400 });
  await step("an hour later", async () => {
    const tokens = await readsTrueAt("+1h", /second|minute/);
    assert.ok(
      tokens.some((t) => /hour ago|today at/.test(t)),
      `read an hour on: ${tokens.join(" | ")}`,
    );
    await shoot("read-at-1h");
  });

  await step("a day later", async () => {
    const tokens = await readsTrueAt("+1d", /second|minute|hours? ago/);
    assert.ok(
      tokens.some((t) => /yesterday/.test(t)),
      `read a day on: ${tokens.join(" | ")}`,
    );
    assert.match((await messages().last().locator(".msg-time").textContent()) ?? "", /^yesterday at /);
    await shoot("read-at-1d");
    for (const [name, marker] of [
      ["snoozed-alert", "snoozed by @alice"],
      ["collection-alert", "PaymentForm"],
      ["digest", "Daily Decipher digest"],
    ] as const) {
      const message = messages().filter({ hasText: marker }).filter({ hasNotText: "Subscribed" }).last();
      await message.scrollIntoViewIfNeeded();
      await message.screenshot({ path: new URL(`sandbox-read-at-1d-${name}.png`, RESULTS).pathname });
    }
  });
  await page.setViewportSize({ width: 1280, height: 860 });
});

test("the sandbox page re-reads times already drawn as time passes and as its clock moves, in place", async () => {
  await page.goto(`${stack.pageUrl}#C0GENERAL`);
  await page.locator(".live", { hasText: "live" }).waitFor();
  const say = async (text: string, threadTs?: string) => {
    const res = await fetch(`${stack.slackUrl}/__slack/user-messages`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        botToken: stack.botToken,
        channelId: "C0GENERAL",
        userId: "U0BOB",
        text,
        threadTs,
      }),
    });
    const body = await res.text();
    assert.equal(res.status, 200, body);
    return (JSON.parse(body) as { message: { ts: string } }).message.ts;
  };
  const ended = Math.floor(Date.now() / 1000) - 30;
  const ts = await say(`Run #10072 ended <!date^${ended}^{ago}|${ended}>`);
  await say(`last #10072 <!date^${ended}^{ago}|${ended}>`, ts);
  const card = messages().filter({ hasText: "Run #10072 ended" });
  const token = card.locator(".date");
  await token.waitFor();
  const drawn = (await token.textContent()) ?? "";
  assert.match(drawn, /seconds? ago/);
  await card.locator("button.replies").click();
  const replyToken = page.locator("#thread-messages .msg", { hasText: "last #10072" }).locator(".date");
  await replyToken.waitFor();
  await page.evaluate(() => {
    (window as unknown as { drawnOnce: boolean }).drawnOnce = true;
  });

  await step("a token already drawn reads on as time passes", async () => {
    await page.waitForFunction(
      ([node, before]) => node?.textContent !== before,
      [await token.elementHandle(), drawn] as const,
      { timeout: 15_000 },
    );
  });

  await step(
    "moving the reading clock re-reads the channel and the open thread without reloading",
    async () => {
      await page.click('#reading-clock a[data-at="+1d"]');
      await page.locator('#reading-clock a.active[data-at="+1d"]').waitFor();
      assert.equal(await token.textContent(), "yesterday");
      assert.equal(await replyToken.textContent(), "yesterday");
      assert.match((await card.locator(".msg-time").textContent()) ?? "", /^yesterday at /);
      assert.match((await card.locator("button.replies").textContent()) ?? "", /Last reply yesterday at /);
      assert.match(page.url(), /\?at=%2B1d#C0GENERAL$/);
      assert.equal(await page.locator("#thread").isVisible(), true, "the open thread closed");
      assert.equal(await page.evaluate(() => (window as unknown as { drawnOnce?: boolean }).drawnOnce), true);
      await page.click('#reading-clock a[data-at=""]');
      await page.waitForFunction((node) => /ago$/.test(node?.textContent ?? ""), await token.elementHandle());
    },
  );
  // The next test loads the page afresh: a goto that changes only the hash would not.
  await page.goto("about:blank");
});

test("the sandbox page switches workspaces, and each suggests its own organization's commands", async () => {
  const globex = "xoxb-browser-globex";
  for (const [path, body] of [
    ["/__slack/oauth/offer", { botToken: globex, label: "Globex Sandbox" }],
    [
      "/__sandbox/workspaces",
      { botToken: globex, label: "Globex Sandbox", examples: sandboxExamples("globex") },
    ],
  ] as const) {
    const res = await fetch(`${stack.slackUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 200, `${path}: ${await res.text()}`);
  }
  await page.goto(`${stack.pageUrl}#C0DEMO`);
  const chips = () => page.locator("#suggestions button").allTextContents();
  await step("the switcher offers both", async () => {
    await page.locator("#suggestions button").first().waitFor();
    const switcher = page.locator("#workspace");
    await switcher.waitFor();
    assert.deepEqual(await switcher.locator("option").allTextContents(), ["Acme Sandbox", "Globex Sandbox"]);
    assert.ok((await chips()).includes("/decipher subscribe test 101"));
    await switcher.selectOption({ label: "Globex Sandbox" });
  });
  await step("Globex's page suggests Globex's tests and users", async () => {
    // Named by its label in the URL: a bot token is a secret, not something to put in an address bar.
    await page.waitForURL((url) => url.searchParams.get("ws") === "globex-sandbox" && url.hash === "#C0DEMO");
    assert.ok(!page.url().includes(globex), "the bot token is in the page's URL");
    await page.locator("#team-name", { hasText: "Globex Sandbox" }).waitFor();
    await page.locator("#suggestions button").first().waitFor();
    const shown = (await chips()).join("\n");
    assert.match(shown, /\/sessions hank@globex\.com/);
    assert.match(shown, /\/decipher subscribe test 201/);
    assert.doesNotMatch(shown, /acme|\b10[1-3]\b|\b501\b/, "Acme's examples on Globex's page");
    await shoot("globex-workspace");
  });
});

test("the sandbox page's assistant pane: prompts from the demo's tests, a status line, the answer", async () => {
  await page.goto(`${stack.pageUrl}#C0DEMO`);
  await page.locator(".live", { hasText: "live" }).waitFor();
  await emulatorControl(stack.emulatorUrl)
    .org(stack.apiKey)
    .addRun(101, "failed", { oneLineSummary: "Sandbox browser test: the pay button did nothing" });
  for (const id of [101, 102]) {
    await command(`/decipher subscribe test ${id}`);
    await messages()
      .filter({ hasText: `(#${id})` })
      .first()
      .waitFor();
  }
  const pane = page.locator("#assistant");
  let asked = "";
  await step("the pane opens with prompts built from the demo's tests", async () => {
    await page.click("#assistant-open");
    await pane.waitFor();
    const chips = pane.locator(".prompt-chip");
    await chips.first().waitFor();
    const titles = await chips.allTextContents();
    assert.equal(titles[0], "What failed today?");
    const why = titles.find((t) => /^Why did (Checkout flow|Login with SSO) fail\?$/.test(t));
    assert.ok(why, `no 'Why did … fail?' of a demo test among ${titles.join(" | ")}`);
    asked = why;
    await shoot("assistant-pane-prompts");
  });
  await step("a prompt clicked is asked, and answered in the pane with the demo's test", async () => {
    const test = /^Why did (.+) fail\?$/.exec(asked)?.[1] ?? "";
    await pane.locator(".prompt-chip", { hasText: asked }).click();
    const answer = pane.locator("#assistant-messages .msg").filter({ hasText: "last failed" });
    await answer.waitFor();
    const text = (await answer.textContent()) ?? "";
    assert.ok(text.includes(test), `the answer does not name ${test}: ${text}`);
    assert.ok(
      await pane.locator("#assistant-messages .msg", { hasText: asked }).count(),
      "the question is not shown",
    );
    assert.equal(
      await pane.locator("#assistant-status").isVisible(),
      false,
      "the status line outlived the answer",
    );
    await shoot("assistant-pane-answer");
    // The pane alone, as docs/try-it-locally.md shows it (copied to docs/screenshots/assistant-pane.png).
    await pane.screenshot({ path: new URL("sandbox-assistant-pane.png", RESULTS).pathname });
  });
  await step("a question typed in the pane is answered there too", async () => {
    await page.fill("#assistant-composer", "what did jane@acme.com do today?");
    await page.press("#assistant-composer", "Enter");
    await pane.locator("#assistant-messages .msg", { hasText: "jane@acme.com" }).nth(1).waitFor();
    await page.click("#assistant-close");
    assert.equal(await pane.isVisible(), false);
  });
});

test("the sandbox page's @ list: a group picked as Slack offers it reaches mention: escaped, and the reply names it", async () => {
  await page.goto(`${stack.pageUrl}#C0ALERTS`);
  await page.locator(".live", { hasText: "live" }).waitFor();
  await step("typing @ opens the workspace's people and groups", async () => {
    await page.fill("#composer", "/decipher subscribe test 101 mention:@on");
    const choice = page.locator("#mention-list .mention-choice", { hasText: "@oncall" });
    await choice.waitFor();
    assert.equal(await page.locator("#mention-list .mention-choice", { hasText: "@alice" }).count(), 0);
    await shoot("mention-picker");
    await choice.click();
    assert.equal(await page.inputValue("#composer"), "/decipher subscribe test 101 mention:@oncall ");
  });
  await step("Enter picks the highlighted name, as in Slack, and the list closes", async () => {
    await page.fill("#composer", "/decipher subscribe test 102 mention:@qa");
    await page.locator("#mention-list .mention-choice.active", { hasText: "@qa-team" }).waitFor();
    await page.press("#composer", "Enter");
    assert.equal(await page.inputValue("#composer"), "/decipher subscribe test 102 mention:@qa-team ");
    assert.equal(await page.locator("#mention-list").isVisible(), false);
    await page.fill("#composer", "/decipher subscribe test 101 mention:@oncall ");
  });
  await step("sent, it reaches the bot as a group, and the reply says who new failures ping", async () => {
    await page.press("#composer", "Enter");
    // Typed without picking, the bot would answer that @oncall reached it as plain text.
    await messages().filter({ hasText: "new failures ping @oncall" }).first().waitFor();
    assert.equal(await messages().filter({ hasText: "reached me as plain text" }).count(), 0);
    await shoot("mention-picked");
  });
});
