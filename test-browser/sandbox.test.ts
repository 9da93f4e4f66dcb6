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
  const res = await fetch(`${stack.emulatorUrl}/__emulator/tests/102/runs`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ apiKey: stack.apiKey, status, oneLineSummary, failedSteps: 2, totalSteps: 9 }),
  });
  assert.equal(res.status, 201, await res.text());
}

/** How many chat.update calls the bot has made: a triage click edits the alert's parent. */
async function parentUpdates(): Promise<number> {
  const res = await fetch(`${stack.slackUrl}/__slack/calls?method=chat.update&botToken=${stack.botToken}`);
  const { calls } = (await res.json()) as { calls: unknown[] };
  return calls.length;
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

  await step("subscribe", async () => {
    await command("/decipher subscribe test 102");
    await messages().filter({ hasText: "Subscribed this channel to test Login with SSO" }).waitFor();
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
    assert.match((await dialog.locator(".bk-confirm-title").textContent()) ?? "", /^Mute test 102\?$/);
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
  });

  await step("app home", async () => {
    await page.click("#home-link");
    const home = page.locator("#home");
    await home.locator(".bk-section", { hasText: "Login with SSO" }).waitFor();
    assert.match((await home.textContent()) ?? "", /decipher-demo/);
  });

  await step("find sessions", async () => {
    await page.locator("#home .bk-button", { hasText: "Find sessions" }).click();
    await page.locator("#modal-title", { hasText: "Find sessions" }).waitFor();
    await page.click("#modal-submit");
    await page.locator('#modal [data-error-for="email"]', { hasText: /sessions/ }).waitFor();
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
      .filter({ hasText: "muted by @alice — undo with /decipher subscribe test 102" });
    await muted.waitFor();
    // A muted alert offers no triage controls.
    assert.equal(await muted.locator("[data-action-id^=triage_]").count(), 0);
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
