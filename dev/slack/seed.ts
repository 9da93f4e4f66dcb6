import type { Channel, User, UserGroup } from "./standin-types.ts";

// Every workspace starts from the same fixture so tests can name channels without setup.
// Ids are Slack-shaped (C…/U…) but readable.

const created = 1_700_000_000;

export function seedChannels(): Channel[] {
  const channel = (id: string, name: string, extra: Partial<Channel> = {}): Channel => ({
    id,
    name,
    isArchived: false,
    isMember: true,
    isPrivate: false,
    created,
    topic: "",
    members: ["U0ALICE", "U0BOB"],
    ...extra,
  });
  return [
    channel("C0GENERAL", "general", { topic: "Company-wide announcements" }),
    channel("C0ALERTS", "alerts", { topic: "Decipher alerts land here" }),
    channel("C0DEMO", "decipher-demo", { topic: "Try /sessions and /decipher here" }),
    channel("C0ARCHIVED", "old-alerts", { isArchived: true }),
    channel("C0NOTIN", "random", { isMember: false }),
    // Private, with the bot and Alice only: Bob cannot see it.
    channel("C0PRIVATE", "incidents", { isPrivate: true, members: ["U0ALICE"] }),
  ];
}

export const BOT_USER_ID = "U0DECIPHER";
export const BOT_ID = "B0DECIPHER";
export const APP_ID = "A0DECIPHER";
export const SLACKBOT_USER_ID = "USLACKBOT";

export function seedUserGroups(): UserGroup[] {
  return [
    { id: "S0ONCALL", handle: "oncall", name: "On-call", users: ["U0BOB"] },
    { id: "S0QA", handle: "qa-team", name: "QA team", users: ["U0ALICE", "U0BOB"] },
  ];
}

export function seedUsers(): User[] {
  return [
    { id: "U0ALICE", name: "alice", realName: "Alice Ng", displayName: "alice", isBot: false },
    { id: "U0BOB", name: "bob", realName: "Bob Ortiz", displayName: "bob", isBot: false },
    { id: BOT_USER_ID, name: "decipher", realName: "Decipher", displayName: "Decipher", isBot: true },
  ];
}
