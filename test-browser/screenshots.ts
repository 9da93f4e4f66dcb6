// Screenshots of a test alert and a collection alert as the sandbox page renders them, cropped
// to the message, and the rendered height of the failed-run alert (the first failure parent).
// Runs the stack of any checkout, so an old release can be shot with today's script:
//
//   node test-browser/screenshots.ts [root=.] [label=after] [outDir=docs/screenshots]
//   git worktree add /tmp/old-sandbox dd8d2c4 && (cd /tmp/old-sandbox && npm ci)
//   node test-browser/screenshots.ts /tmp/old-sandbox before
//
// Deterministic like the browser test: no simulation or cron timer; runs and sessions are
// added through the emulator's control API and the poll is fired with the page's "Poll now".
//
// Emoji come from the page's own colour web font (twemoji-colr-font, dev/slack/page/routes.ts),
// so they show in colour in any headless Chromium. A page from before that font gets the same
// one from this checkout, so both sides of a comparison draw emoji alike.
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Locator, type Page } from "playwright-core";
import type { Stack, StackOptions } from "../dev/stack.ts";
import { clock, cronAt, twoMinutesAhead } from "./cron-at.ts";
import { findBrowser } from "./find-browser.ts";

const [root = ".", label = "after", outDir = "docs/screenshots"] = process.argv.slice(2);
const { startStack } = (await import(pathToFileURL(resolve(root, "dev/stack.ts")).href)) as {
  startStack: (o: StackOptions) => Promise<Stack>;
};

const found = await findBrowser();
const [stack, browser] = await Promise.all([
  startStack({
    ports: { bot: 0, emulator: 0, slack: 0 },
    simulate: false,
    cronIntervalMs: null,
    quiet: true,
  }),
  chromium.launch({ executablePath: found.executablePath, args: found.args, headless: true }),
]);

async function control(path: string, body: Record<string, unknown>) {
  const res = await fetch(`${stack.emulatorUrl}/__emulator${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ apiKey: stack.apiKey, ...body }),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}

async function command(page: Page, line: string, answer: string) {
  await page.fill("#composer", line);
  await page.press("#composer", "Enter");
  await page.locator("#messages .msg", { hasText: answer }).first().waitFor();
}

/** The newest message in the channel (not an ephemeral) containing `marker`. */
async function alertWith(page: Page, marker: string): Promise<Locator> {
  const alert = page
    .locator("#messages .msg", { hasText: marker })
    .filter({ hasNot: page.locator(".eph-note") })
    .filter({ hasNotText: "Subscribed" })
    .last();
  await alert.waitFor();
  // Its images (the emulator draws them) and the emoji font load.
  await alert.scrollIntoViewIfNeeded();
  await alert.evaluate((node) =>
    Promise.all(
      [...node.querySelectorAll("img")].map((img) =>
        img.complete
          ? null
          : new Promise((done) => {
              img.addEventListener("load", done, { once: true });
              img.addEventListener("error", done, { once: true });
            }),
      ),
    ),
  );
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(400);
  return alert;
}

/**
 * The charts and tables: a collection alert whose chart grew over three alerts, a digest on
 * its second local day (two zones 26 hours apart, so no one waits a day) and a weekly report.
 * The window is made tall enough for the whole message.
 */
async function chartsAndTables(page: Page) {
  await page.setViewportSize({ width: 1100, height: 2600 });
  for (const count of [7, 9]) {
    await control("/collections/501/sessions", { count });
    await page.click("#poll-now");
    await page.waitForTimeout(1500);
  }
  const grown = await alertWith(page, "PaymentForm");
  await grown.locator(".bk-chart").waitFor();
  await grown.screenshot({ path: `${outDir}/collection-alert-chart.png` });

  await command(page, "/decipher subscribe test 101", "Subscribed");
  for (const zone of ["Etc/GMT+12", "Etc/GMT-14"]) {
    const due = twoMinutesAhead();
    await command(
      page,
      `/decipher digest ${clock(due, zone)} ${zone}`,
      `Daily digest set for ${clock(due, zone)}`,
    );
    await cronAt(stack.botUrl, new Date(due.getTime() + 5_000));
  }
  const digest = await alertWith(page, "Pass rate of this channel");
  await digest.locator("table.bk-table").waitFor();
  await digest.screenshot({ path: `${outDir}/digest-charts.png` });

  const due = twoMinutesAhead();
  const day = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", weekday: "short" })
    .format(due)
    .toLowerCase();
  await command(page, `/decipher weekly ${day} ${clock(due, "UTC")} UTC`, "Weekly report set");
  await cronAt(stack.botUrl, new Date(due.getTime() + 5_000));
  const weekly = await alertWith(page, "Weekly Decipher report");
  await weekly.locator("table.bk-table").waitFor();
  await weekly.screenshot({ path: `${outDir}/weekly-report.png` });
}

try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 1400 }, deviceScaleFactor: 1 });
  page.setDefaultTimeout(30_000);
  // The page's own @font-face range (dev/slack/page/style.css).
  const EMOJI_RANGE = /unicode-range:([^;]+);/.exec(
    readFileSync(new URL("../dev/slack/page/style.css", import.meta.url), "utf8"),
  )?.[1];
  const font = readFileSync(createRequire(import.meta.url).resolve("twemoji-colr-font/twemoji.woff2"));
  await page.route("**/__screenshots/emoji.woff2", (route) =>
    route.fulfill({ body: font, contentType: "font/woff2" }),
  );
  await page.goto(`${stack.pageUrl}#C0DEMO`);
  const hasFont = await page.evaluate(() =>
    [...document.fonts].some((f) => f.family.replace(/"/g, "") === "Sandbox Emoji"),
  );
  if (!hasFont) {
    await page.addStyleTag({
      content: `@font-face { font-family: "Sandbox Emoji"; src: url("/__screenshots/emoji.woff2") format("woff2");
        unicode-range: ${EMOJI_RANGE}; }
        :root, button, select, input { font-family: "Sandbox Emoji", -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }`,
    });
  }
  await page.locator(".live", { hasText: "live" }).waitFor();
  mkdirSync(outDir, { recursive: true });

  await command(page, "/decipher subscribe test 102", "Subscribed");
  await command(page, "/decipher subscribe collection 501", "Subscribed");
  // The first poll takes the baselines; what follows is new.
  await page.click("#poll-now");
  await page.waitForTimeout(1500);

  await control("/tests/102/runs", {
    status: "failed",
    oneLineSummary: "The SSO button did nothing after the redirect",
    failedSteps: 2,
    totalSteps: 9,
  });
  await control("/collections/501/sessions", { count: 12 });
  await page.click("#poll-now");

  // "Test failed:", not the name alone: the channel's first subscription posts a welcome naming the test.
  const testAlert = await alertWith(page, "Test failed: Login with SSO");
  const box = await testAlert.boundingBox();
  await testAlert.screenshot({ path: `${outDir}/test-alert-${label}.png` });
  const collectionAlert = await alertWith(page, "PaymentForm");
  await collectionAlert.screenshot({ path: `${outDir}/collection-alert-${label}.png` });
  const collectionBox = await collectionAlert.boundingBox();
  console.log(
    JSON.stringify({
      label,
      failedRunAlertHeightPx: box ? Math.round(box.height) : null,
      collectionAlertHeightPx: collectionBox ? Math.round(collectionBox.height) : null,
      width: box ? Math.round(box.width) : null,
    }),
  );
  if (label === "after") await chartsAndTables(page);
} finally {
  await browser.close().catch(() => {});
  await stack.stop();
}
