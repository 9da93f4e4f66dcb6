import { isRecord, isUuid } from "../util/checks.ts";
import { toDate } from "./mrkdwn.ts";
import * as SLACK_LIMITS from "./slack-limits.ts";

/*
 * The codecs of button values (their action ids are in src/messages/action-ids.ts). A value is
 * echoed back by Slack when the button is clicked, so it carries only ids, cursors and the
 * search query — never a secret — and it is validated on the way back: a decoder answers
 * null, never throws.
 */

/** A `/sessions` search as it travels in a button value: one filter, bounds as ISO strings. */
export type SessionSearchValue = {
  userEmail?: string;
  userId?: string;
  url?: string;
  since?: string;
  until?: string;
};

/**
 * A page of a search: `cursor` null is the first page. `page` is the number the reply shows
 * ("page 2"); the vendor's cursors carry no position, so it travels with them.
 */
export type MoreValue = { query: SessionSearchValue; cursor: string | null; page: number };

const MAX_PAGE = 10_000;

const QUERY_KEYS = ["userEmail", "userId", "url", "since", "until"] as const;
/** Decipher names sessions by UUID. */
export const isSessionId = isUuid;

function parseJson(value: unknown): unknown {
  if (typeof value !== "string" || value.length > SLACK_LIMITS.buttonValue) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** Cuts by code points, so a cut never leaves half a surrogate pair in the JSON. */
const cutCodePoints = (s: string, n: number) => [...s].slice(0, Math.max(0, n)).join("");

/**
 * The **More** (and **First page**) button's value: `{"v":1,"q":{…},"c":"<cursor>","p":2}`. When the query does not fit
 * in 2000 chars, the `url` filter is shortened (the vendor matches URLs by text, so a prefix
 * still finds the sessions, plus possibly a few more). Null when even that does not fit (a
 * huge cursor or email): the caller then shows no More button.
 */
export function encodeMoreValue(more: MoreValue): string | null {
  const query: SessionSearchValue = {};
  for (const key of QUERY_KEYS) {
    const v = more.query[key];
    if (typeof v === "string" && v !== "") query[key] = v;
  }
  const page = Number.isSafeInteger(more.page) && more.page >= 1 && more.page <= MAX_PAGE ? more.page : 1;
  const encode = () =>
    JSON.stringify({ v: 1, q: query, ...(more.cursor !== null ? { c: more.cursor } : {}), p: page });
  let value = encode();
  while (value.length > SLACK_LIMITS.buttonValue && query.url) {
    const points = [...query.url].length;
    const excess = value.length - SLACK_LIMITS.buttonValue;
    const next = cutCodePoints(query.url, points - Math.max(1, Math.ceil(excess / 6)));
    if (next === "") delete query.url;
    else query.url = next;
    value = encode();
  }
  return value.length <= SLACK_LIMITS.buttonValue && more.cursor !== "" ? value : null;
}

const isPage = (p: unknown): p is number =>
  typeof p === "number" && Number.isSafeInteger(p) && p >= 1 && p <= MAX_PAGE;

/** The More value back, or null for anything this bot did not write. */
export function decodeMoreValue(value: unknown): MoreValue | null {
  const data = parseJson(value);
  if (!isRecord(data) || data.v !== 1 || !isRecord(data.q)) return null;
  const cursor = data.c === undefined ? null : data.c;
  if (cursor !== null && (typeof cursor !== "string" || cursor === "")) return null;
  // Values written before pages were counted carry no `p`: a cursor then means page 2.
  const page = data.p === undefined ? (cursor === null ? 1 : 2) : data.p;
  if (!isPage(page)) return null;
  const query: SessionSearchValue = {};
  for (const [key, v] of Object.entries(data.q)) {
    if (!(QUERY_KEYS as readonly string[]).includes(key) || typeof v !== "string") return null;
    query[key as keyof SessionSearchValue] = v;
  }
  return { query, cursor, page };
}

/** A page of `/decipher list` or `status`: the subscription it starts at, and its number. */
export type ChannelPageValue = { view: "list" | "status"; from: number; page: number };

const MAX_FROM = 1_000_000;

/** `{"v":1,"w":"list","f":25,"p":2}`: names no channel, so a click reads the channel it was clicked in. */
export function encodeChannelPageValue(value: ChannelPageValue): string {
  return JSON.stringify({ v: 1, w: value.view, f: value.from, p: value.page });
}

export function decodeChannelPageValue(value: unknown): ChannelPageValue | null {
  const data = parseJson(value);
  if (!isRecord(data) || data.v !== 1 || (data.w !== "list" && data.w !== "status")) return null;
  const from = data.f;
  if (typeof from !== "number" || !Number.isSafeInteger(from) || from < 0 || from > MAX_FROM) return null;
  if (!isPage(data.p)) return null;
  return { view: data.w, from, page: data.p };
}

/** The minimum to re-render a session card in the channel when someone clicks **Share**. */
export type SharedSessionCard = {
  id: string;
  createdAt: string;
  duration: number | null;
  userEmail: string | null;
  userId: string | null;
  browser: string | null;
  device: string | null;
  countryCode: string | null;
  hasTimeline: boolean;
};

export function toSharedSessionCard(session: SharedSessionCard): SharedSessionCard {
  const { id, createdAt, duration, userEmail, userId, browser, device, countryCode, hasTimeline } = session;
  return { id, createdAt, duration, userEmail, userId, browser, device, countryCode, hasTimeline };
}

const SHARE_STRING_CAPS = {
  createdAt: 64,
  userEmail: 254,
  userId: 128,
  browser: 64,
  device: 64,
  countryCode: 8,
};
type ShareTuple = [1, string, string, number | null, ...(string | null | number)[]];

/**
 * The **Share** button's value: a JSON tuple (compact, so it fits 2000 chars). Display
 * strings are capped first; a session whose id is not a UUID cannot be shared (null).
 * `collectionId`, on a collection's session, lets **Screenshots** find its error screenshot.
 */
export function encodeShareValue(session: SharedSessionCard, collectionId?: number): string | null {
  if (!isSessionId(session.id)) return null;
  const collection =
    collectionId !== undefined && Number.isSafeInteger(collectionId) && collectionId > 0
      ? [collectionId]
      : [];
  const caps = { ...SHARE_STRING_CAPS };
  const cap = (s: string | null, n: number) => (s === null ? null : cutCodePoints(s, n));
  for (;;) {
    const tuple: ShareTuple = [
      1,
      session.id,
      cap(session.createdAt, caps.createdAt) ?? "",
      typeof session.duration === "number" && Number.isFinite(session.duration) ? session.duration : null,
      cap(session.userEmail, caps.userEmail),
      cap(session.userId, caps.userId),
      cap(session.browser, caps.browser),
      cap(session.device, caps.device),
      cap(session.countryCode, caps.countryCode),
      session.hasTimeline ? 1 : 0,
      ...collection,
    ];
    const value = JSON.stringify(tuple);
    if (value.length <= SLACK_LIMITS.buttonValue) return value;
    // JSON escapes (\u0000) can make a capped string 6× longer: halve until it fits.
    for (const key of Object.keys(caps) as (keyof typeof caps)[]) caps[key] = Math.floor(caps[key] / 2);
  }
}

const isNullableString = (v: unknown): v is string | null => v === null || typeof v === "string";

/** The shared card back, or null when the value is not one this bot wrote. */
export function decodeShareValue(value: unknown): SharedSessionCard | null {
  return decodeCardValue(value)?.card ?? null;
}

function decodeCardValue(value: unknown): { card: SharedSessionCard; collectionId: number | null } | null {
  const data = parseJson(value);
  if (!Array.isArray(data) || (data.length !== 10 && data.length !== 11) || data[0] !== 1) return null;
  const [
    ,
    id,
    createdAt,
    duration,
    userEmail,
    userId,
    browser,
    device,
    countryCode,
    hasTimeline,
    collection,
  ] = data;
  if (collection !== undefined && !(Number.isSafeInteger(collection) && collection > 0)) return null;
  if (!isSessionId(id) || typeof createdAt !== "string") return null;
  if (duration !== null && (typeof duration !== "number" || !Number.isFinite(duration))) return null;
  const strings = [userEmail, userId, browser, device, countryCode];
  if (!strings.every(isNullableString) || (hasTimeline !== 0 && hasTimeline !== 1)) return null;
  const card = {
    id,
    createdAt,
    duration,
    userEmail,
    userId,
    browser,
    device,
    countryCode,
    hasTimeline: hasTimeline === 1,
  } as SharedSessionCard;
  return { card, collectionId: collection ?? null };
}

/**
 * What Timeline, Clicks and Screenshots buttons carry: the card (so the answer can name
 * whose session it is and when), or, from messages written before that, the bare UUID.
 */
export function decodeSessionButtonValue(
  value: unknown,
): { id: string; card: SharedSessionCard | null; collectionId: number | null } | null {
  if (isSessionId(value)) return { id: value, card: null, collectionId: null };
  const decoded = decodeCardValue(value);
  return decoded ? { id: decoded.card.id, ...decoded } : null;
}

/** The bare session UUID (values written before buttons carried the card). */
export function encodeSessionIdValue(sessionId: string): string | null {
  return isSessionId(sessionId) ? sessionId : null;
}

/**
 * The value of the "…and N more new sessions" button: the collection, since when (epoch
 * seconds) and how many new sessions the alert counts, so the answer counts the same ones.
 */
export function encodeCollectionSessionsValue(
  collectionId: number,
  since: string | null,
  count: number | null = null,
  /** The collection's session count when `count` was read: a click counts what came since. */
  total: number | null = null,
): string | null {
  const at = toDate(since);
  if (!Number.isSafeInteger(collectionId) || collectionId <= 0 || !at) return null;
  const counted = count !== null && Number.isSafeInteger(count) && count > 0 ? `|${count}` : "";
  const read = counted && total !== null && Number.isSafeInteger(total) && total >= 0 ? `|${total}` : "";
  return `${collectionId}|${Math.floor(at.getTime() / 1000)}${counted}${read}`;
}

/** `count` and `total` are null on buttons that did not carry them. */
export function decodeCollectionSessionsValue(
  value: unknown,
): { collectionId: number; since: Date; count: number | null; total: number | null } | null {
  if (typeof value !== "string") return null;
  const match = /^(\d{1,15})\|(\d{1,12})(?:\|(\d{1,9})(?:\|(\d{1,9}))?)?$/.exec(value);
  if (!match) return null;
  const collectionId = Number(match[1]);
  const since = new Date(Number(match[2]) * 1000);
  const count = match[3] ? Number(match[3]) : null;
  const total = match[4] ? Number(match[4]) : null;
  return collectionId > 0 && Number.isFinite(since.getTime()) ? { collectionId, since, count, total } : null;
}
