/**
 * The action ids of the bot's buttons and selects; src/messages/button-values.ts has the codecs
 * of their values. Imported as a namespace (`import * as ACTION_IDS`): each id is a constant of
 * its own, which the bundler writes in place of `ACTION_IDS.<name>`.
 */
export const sessionsMore = "sessions_more";
export const sessionTimeline = "session_timeline";
export const sessionClicks = "session_clicks";
export const sessionShare = "session_share";
/** Fresh screenshot URLs on request: the vendor's expire after about 3 hours. */
export const sessionScreenshots = "session_screenshots";
/** Back to the first page of a `/sessions` search. */
export const sessionsFirst = "sessions_first";
/** The next page of `/decipher list` or `status` (src/messages/paging.ts). */
export const channelMore = "channel_more";
/** Back to the first page of `/decipher list` or `status`. */
export const channelFirst = "channel_first";
/** Link buttons: Slack still sends an interaction, which only needs an ack. */
export const runOpen = "run_open";
export const sessionReplay = "session_replay";
export const triageAcknowledge = "triage_acknowledge";
export const triageSnooze = "triage_snooze";
export const triageUnsnooze = "triage_unsnooze";
export const triageMute = "triage_mute";
/** On a muted alert, in `/decipher status` and on the app's Home. */
export const triageUnmute = "triage_unmute";
/** A collection alert's "…and 2 more new sessions": lists them, just to the clicker. */
export const collectionSessions = "collection_sessions";
/** An example question of the help answer: asks it (`ask_example:0`, `:1`, … in one row). */
export const askExample = "ask_example";
