/**
 * Whose subscriptions a question is answered from: the channel it was asked in (a mention,
 * `/decipher ask`), or the channels of the person asking (a DM, the assistant pane). The answer
 * says which, so "This channel does not watch test 103" is never said in a DM.
 */
export type AskScope = "channel" | "person";

export const SCOPE_WORDS = {
  channel: {
    watches: "This channel watches",
    watchesNo: "This channel watches no",
    doesNotWatch: "This channel does not watch",
    testsOf: "No test of this channel",
  },
  person: {
    watches: "Your channels watch",
    watchesNo: "Your channels watch no",
    doesNotWatch: "None of your channels watches",
    testsOf: "No test of your channels",
  },
} as const satisfies Record<AskScope, Record<string, string>>;
