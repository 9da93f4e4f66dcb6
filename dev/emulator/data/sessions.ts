import type { ClickRecord, SessionRecord, TimelineRecord, UserProfile } from "../model.ts";
import type { Rng } from "../rng.ts";
import { browsers, clickTypes, devices, tagPool } from "./templates.ts";

export type SessionPlan = {
  user: UserProfile;
  createdAt: number;
  siteUrl: string;
  paths: readonly string[];
  /** Force a page into the visit (an issue collection's path). */
  mustVisit?: string;
  inProgress?: boolean;
  hasTimeline?: boolean;
  longOverview?: boolean;
  nextClickId: () => number;
  /** The longest it may have lasted: a session that began 4 minutes ago has not lasted 28. */
  maxDuration?: number;
};

const verbs = ["browsed", "compared", "scrolled through", "searched", "revisited", "filtered"];
const features = [
  "search",
  "filters",
  "cart",
  "wishlist",
  "coupon code",
  "address autocomplete",
  "chat widget",
];

/** One recorded session, with its AI timeline and clicks; numbers inside are seconds into it. */
export function makeSession(rng: Rng, plan: SessionPlan): SessionRecord {
  const duration = plan.inProgress ? null : Math.min(rng.int(45, 1800), plan.maxDuration ?? 1800);
  const span = duration ?? 600;
  const visits = pickPaths(rng, plan.paths, plan.mustVisit);
  const visitedUrls = visits.map((p) => plan.siteUrl + p);
  const clicks = makeClicks(rng, visitedUrls, span, plan.nextClickId);
  const hasTimeline = plan.hasTimeline ?? (duration !== null && !rng.chance(0.15));
  return {
    ...plan.user,
    id: rng.uuid(),
    createdAt: plan.createdAt,
    duration,
    browser: rng.pick(browsers),
    device: rng.pick(devices),
    visitedUrls,
    clicks,
    timeline: hasTimeline
      ? makeTimeline(rng, plan, visitedUrls, span, clicks, plan.longOverview ?? false)
      : null,
  };
}

function pickPaths(rng: Rng, paths: readonly string[], mustVisit?: string): string[] {
  const count = rng.int(2, 4);
  const out = [paths[0] ?? "/"];
  while (out.length < count) {
    const p = rng.pick(paths);
    if (!out.includes(p)) out.push(p);
  }
  if (mustVisit && !out.includes(mustVisit)) out.push(mustVisit);
  return out;
}

/**
 * Clicks over the visit, each leading to the page the timeline has the user on a second later
 * (the timeline splits the span evenly between its pages): a click never leads to a page the
 * timeline says the user was not on then.
 */
function makeClicks(rng: Rng, urls: string[], span: number, nextId: () => number): ClickRecord[] {
  const pageAt = (t: number) => urls[Math.min(urls.length - 1, Math.floor((t * urls.length) / span))] ?? "";
  const count = rng.int(0, 8);
  const times = Array.from({ length: count }, () => Math.round(rng.next() * span * 10) / 10).sort(
    (a, b) => a - b,
  );
  return times.map((timestamp) => {
    const type = rng.pick(clickTypes);
    const label = rng.pick(["Pay now", "Add to cart", "Next", "Apply", "Sign in", "Search", "Close"]);
    const clickCount = type === "rage_click" ? rng.int(3, 7) : 1;
    // The draw the random target took, kept so the rest of the seeded demo (users, collections) stays as it was.
    rng.pick(urls);
    return {
      id: nextId(),
      type,
      timestamp,
      clickCount,
      navigationTo: pageAt(Math.min(span - 0.1, timestamp + 1)),
      clickText: label,
      clickTag: rng.pick(["BUTTON", "A", "DIV", "INPUT"]),
      clickCssClass: `btn btn-${label.toLowerCase().replace(/\s+/g, "-")}`,
    };
  });
}

function makeTimeline(
  rng: Rng,
  plan: SessionPlan,
  urls: string[],
  span: number,
  clicks: ClickRecord[],
  long: boolean,
): TimelineRecord {
  const cut = urls.map((_, i) => Math.round((span * i) / urls.length));
  const iso = (seconds: number) => new Date(plan.createdAt + seconds * 1000).toISOString();
  const pages = urls.map((page, i) => {
    const startTime = cut[i] ?? 0;
    const endTime = cut[i + 1] ?? span;
    const n = rng.int(1, 3);
    const activities = Array.from({ length: n }, (_, j) => {
      const a = startTime + ((endTime - startTime) * j) / n;
      const b = startTime + ((endTime - startTime) * (j + 1)) / n;
      return {
        startTime: iso(a),
        endTime: iso(b),
        summary: `${rng.pick(verbs)} ${new URL(page).pathname}`,
        userAction: rng.pick(["click", "scroll", "type", "navigate", "hover"]),
        userBehavior: rng.pick(["focused", "hesitant", "exploring", "frustrated", "goal-directed"]),
      };
    });
    return {
      page,
      startTime,
      endTime,
      clickCount: clicks.filter((c) => c.timestamp >= startTime && c.timestamp < endTime).length,
      featuresUsed: [rng.pick(features), rng.pick(features)].filter((f, k, a) => a.indexOf(f) === k),
      activities,
    };
  });
  const loadingIssues = Array.from({ length: rng.int(0, 2) }, () => {
    const durationInSeconds = Math.round((1.5 + rng.next() * 10) * 10) / 10;
    const page = rng.pick(urls);
    return {
      description: `Slow load of ${new URL(page).pathname}`,
      longDescription: `The page ${page} took ${durationInSeconds} s to become interactive; the main bundle and the product images were fetched sequentially.`,
      durationInSeconds,
      timestamp: Math.round(rng.next() * span * 10) / 10,
    };
  });
  const tags = [rng.pick(tagPool), rng.pick(tagPool)].filter((t, k, a) => a.indexOf(t) === k);
  return { overview: overview(rng, plan.user.userUsername, urls, long), tags, pages, loadingIssues };
}

/** Natural-looking prose; "long" ones exceed 3000 characters so truncation paths are exercised. */
function overview(rng: Rng, name: string, urls: string[], long: boolean): string {
  const paths = urls.map((u) => new URL(u).pathname);
  const first = `${name} started on ${paths[0]} and went on to ${paths.slice(1).join(", then ")}.`;
  const sentences = [first];
  const target = long ? 3200 + rng.int(0, 800) : rng.int(160, 600);
  let written = first.length;
  while (written < target) {
    const p = rng.pick(paths);
    const options = [
      `On ${p} they ${rng.pick(verbs)} the page for a while before using the ${rng.pick(features)}.`,
      `They hesitated on ${p}, moving the pointer between options without clicking, which suggests the choice was unclear.`,
      `A layout shift on ${p} moved the primary button just as they clicked, and they had to click again.`,
      `While on ${p} they opened the ${rng.pick(features)} twice, apparently looking for information that was not shown.`,
      `Nothing on ${p} failed visibly, but the time spent there is well above the median for this page.`,
    ];
    const picked = rng.pick(options);
    // A summary never says the same thing twice: another of the drawn sentences instead, or none.
    // The draws stay as they were, so the rest of the seeded demo does not change.
    const sentence = [picked, ...options].find((o) => !sentences.includes(o));
    if (sentence) sentences.push(sentence);
    written += 1 + (sentence ?? picked).length;
  }
  return sentences.join(" ");
}
