/**
 * Pure builders of every message the bot sends. Each returns `{ text, blocks }` that already
 * fits Slack's limits (see `../limits.ts`), with vendor text escaped (see `../mrkdwn.ts`).
 * None reads a clock: callers pass `now` and `appUrl` (e.g. `https://app.getdecipher.com`).
 *
 * - `/sessions`: `sessionsMessage`, `noSessionsMessage`, `usageMessage`, `errorMessage`
 * - buttons: `timelineMessage` (Timeline), `clicksMessage` (Clicks), `sharedSessionMessage` (Share)
 * - `/decipher`: `decipherHelpMessage`
 * - alerts: `failedRunAlert`, `failedRunReply`, `recoveryReply`, `collectionAlert`,
 *   `collectionGrowthReply`; digests: `digestMessage`
 * - button values: `action-ids.ts` codecs (`encodeMoreValue`, `decodeShareValue`, …)
 */

export type { MessageBlock, SlackMessage } from "../limits.ts";
export * from "./action-ids.ts";
export { type ClicksMessageInput, clicksMessage, screenshotExpiry } from "./clicks.ts";
export {
  type CollectionAlertInput,
  type CollectionGrowthInput,
  collectionAlert,
  collectionGrowthReply,
} from "./collection-alerts.ts";
export { type DigestInput, type DigestTestState, digestMessage } from "./digest.ts";
export { decipherHelpMessage, errorMessage, usageMessage } from "./help.ts";
export { runUrl, sessionUrl, testUrl } from "./links.ts";
export {
  noSessionsMessage,
  SESSIONS_PER_MESSAGE,
  type SessionsMessageInput,
  sessionsMessage,
} from "./sessions.ts";
export { type SharedSessionInput, sharedSessionMessage } from "./shared-session.ts";
export {
  type FailedRunInput,
  failedRunAlert,
  failedRunReply,
  type RecoveryInput,
  recoveryReply,
} from "./test-run-alerts.ts";
export { type TimelineMessageInput, timelineMessage } from "./timeline.ts";
