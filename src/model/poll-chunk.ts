/** A chunk of subscriptions to poll, as the cron sends it through the queue to another invocation. */
export type PollChunk = { names: string[]; at: string };
