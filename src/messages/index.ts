/**
 * Pure builders of every message the bot sends. Each returns `{ text, blocks }` that already
 * fits Slack's limits (see `../limits.ts`), with vendor text escaped (see `../mrkdwn.ts`).
 * None reads a clock: callers pass `now` and `appUrl` (e.g. `https://app.getdecipher.com`).
 *
 * - `/sessions`: `sessionsMessage`, `noSessionsMessage`, `usageMessage`, `errorMessage`
 * - buttons: `timelineMessage` (Timeline), `clicksMessage` (Clicks), `sharedSessionMessage` (Share)
 * - `/decipher`: `decipherHelpMessage`
 * - test alerts (failed-run-card.ts): `failedRunParent` (the streak's parent, re-rendered in
 *   place), `failedRunThreadReply`, `recoveryThreadReply`; `runStrip`
 * - collection alerts (collection-card.ts): `collectionParent`, `collectionDetailsReply`,
 *   `collectionGrowthThreadReply`
 * - triage: `triageControls`, status lines (`alert-status.ts`), values (`triage-values.ts`)
 * - digests: `digestMessage`
 * - button values: `action-ids.ts` codecs (`encodeMoreValue`, `decodeShareValue`, …)
 */

export * from "./action-ids.ts";
export { type TriageState, triageLines } from "./alert-status.ts";
export { type ClicksMessageInput, clicksMessage, screenshotExpiry } from "./clicks.ts";
export {
  type CollectionParentInput,
  type CollectionReplyInput,
  collectionDetailsReply,
  collectionGrowthThreadReply,
  collectionParent,
} from "./collection-card.ts";
export {
  type Count24h,
  collectionChange,
  type DigestCollection,
  type DigestInput,
  type DigestTestLine,
  type DigestTestState,
  digestMessage,
} from "./digest-message.ts";
export {
  type FailedRunParentInput,
  type FailedRunReplyInput,
  failedRunParent,
  failedRunThreadReply,
  type RecoveryReplyInput,
  type RunMark,
  recoveryThreadReply,
  testStatusLines,
} from "./failed-run-card.ts";
export { decipherHelpMessage, errorMessage, usageMessage } from "./help.ts";
export type { MessageBlock, SlackMessage } from "./limits.ts";
export { runUrl, sessionUrl, testUrl } from "./links.ts";
export { RUN_STRIP_LENGTH, runStrip, type StripRun } from "./run-strip.ts";
export {
  noSessionsMessage,
  SESSIONS_PER_MESSAGE,
  type SessionsMessageInput,
  sessionsMessage,
} from "./sessions.ts";
export { type SharedSessionInput, sharedSessionMessage } from "./shared-session.ts";
export { type TimelineMessageInput, timelineMessage } from "./timeline.ts";
export { resubscribeCommand, triageControls } from "./triage-controls.ts";
export * from "./triage-values.ts";
