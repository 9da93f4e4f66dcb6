import type { SessionSearchValue } from "../../messages/button-values.ts";
import { CommandInputError } from "../../model/command-input-error.ts";
import { parseTimeBound } from "./time-bound.ts";

export type SessionsFilter = { userEmail: string } | { userId: string } | { url: string };

/** What a person searched for with `/sessions`, parsed: one filter and optional time bounds. */
export type SessionSearch = {
  filter: SessionsFilter;
  since?: Date;
  until?: Date;
};

const EMAIL = /^[^\s@<>|]+@[^\s@<>|]+\.[^\s@<>|]+$/;

/** An email address as `/sessions` and the Find sessions form accept it. */
export const isEmail = (text: string) => EMAIL.test(text);

/** Slack may hand over `<mailto:a@b.c|a@b.c>` or `<https://x|x>` when it auto-links text. */
function unwrapSlackLink(token: string): string {
  const match = /^<(?:mailto:)?([^|>]+)(?:\|[^>]*)?>$/.exec(token);
  return match ? (match[1] as string) : token;
}

/**
 * Reads `/sessions <email> | user:<userId> | url:<text> [since:<…>] [until:<…>]`.
 * Throws `CommandInputError` with a sentence that says what to fix.
 */
export function parseSessionSearch(text: string, now: Date): SessionSearch {
  const tokens = text.trim().split(/\s+/).filter(Boolean).map(unwrapSlackLink);
  if (tokens.length === 0) throw new CommandInputError("Tell me whose sessions to find.");
  let filter: SessionsFilter | undefined;
  let since: Date | undefined;
  let until: Date | undefined;
  const setFilter = (next: SessionsFilter) => {
    if (filter)
      throw new CommandInputError("Give one of an email, `user:<id>` or `url:<text>`, not several.");
    filter = next;
  };
  for (const token of tokens) {
    const colon = token.indexOf(":");
    const key = colon > 0 ? token.slice(0, colon).toLowerCase() : "";
    const value = colon > 0 ? unwrapSlackLink(token.slice(colon + 1)) : token;
    if (key === "since" || key === "until") {
      if (!value) throw new CommandInputError(`\`${key}:\` needs a value, like \`${key}:7d\`.`);
      const bound = parseTimeBound(key, value, now);
      if (key === "since") since = bound;
      else until = bound;
    } else if (key === "user") {
      if (!value) throw new CommandInputError("`user:` needs a user id, like `user:usr_123`.");
      setFilter({ userId: value });
    } else if (key === "url") {
      if (!value) throw new CommandInputError("`url:` needs part of a URL, like `url:/checkout`.");
      setFilter({ url: value });
    } else if (EMAIL.test(token)) {
      setFilter({ userEmail: token });
    } else {
      throw new CommandInputError(
        `I can't read \`${token.slice(0, 80)}\`: expected an email address, \`user:<id>\` or \`url:<text>\`.`,
      );
    }
  }
  if (!filter)
    throw new CommandInputError("Tell me whose sessions to find: an email, `user:<id>` or `url:<text>`.");
  if (since && until && since.getTime() >= until.getTime()) {
    throw new CommandInputError("`since` must be before `until`.");
  }
  return { filter, ...(since ? { since } : {}), ...(until ? { until } : {}) };
}

/** Human description for headers and "no sessions for …" lines. */
export function describeSessionSearch(query: {
  filter: SessionsFilter;
  since?: Date | string;
  until?: Date | string;
}): string {
  const who =
    "userEmail" in query.filter
      ? query.filter.userEmail
      : "userId" in query.filter
        ? `user ${query.filter.userId}`
        : `URL containing "${query.filter.url}"`;
  const iso = (d: Date | string) =>
    (typeof d === "string" ? d : d.toISOString()).slice(0, 16).replace("T", " ");
  if (query.since && query.until) return `${who} between ${iso(query.since)} and ${iso(query.until)} UTC`;
  if (query.since) return `${who} since ${iso(query.since)} UTC`;
  if (query.until) return `${who} until ${iso(query.until)} UTC`;
  return who;
}

/** The search as a button carries it (ISO bounds). */
export function toSearchValue(search: SessionSearch): SessionSearchValue {
  return {
    ...search.filter,
    ...(search.since ? { since: search.since.toISOString() } : {}),
    ...(search.until ? { until: search.until.toISOString() } : {}),
  };
}

/** The search back from a button value; null when it names no filter or a bad date. */
export function fromSearchValue(value: SessionSearchValue): SessionSearch | null {
  const filter: SessionsFilter | null = value.userEmail
    ? { userEmail: value.userEmail }
    : value.userId
      ? { userId: value.userId }
      : value.url
        ? { url: value.url }
        : null;
  if (!filter) return null;
  const since = value.since ? new Date(value.since) : undefined;
  const until = value.until ? new Date(value.until) : undefined;
  if ((since && Number.isNaN(since.getTime())) || (until && Number.isNaN(until.getTime()))) return null;
  return { filter, ...(since ? { since } : {}), ...(until ? { until } : {}) };
}
