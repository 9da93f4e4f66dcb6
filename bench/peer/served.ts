/** One server under test: where to send requests and which processes do the work. */
export type PeerId =
  | "wrangler"
  | "workerd"
  | "workerd-serve"
  | "workerd-serve-base"
  | "hono-floor"
  | "hono-floor-help"
  | "bolt";

export const PEER_NAMES: Record<PeerId, string> = {
  wrangler: "ours under `wrangler dev`",
  workerd: "ours on workerd (Miniflare, no dev proxy)",
  "workerd-serve": "ours on bare `workerd serve` (no Miniflare)",
  "workerd-serve-base": "ours before (the baseline build) on bare `workerd serve`",
  "hono-floor": "floor: a Hono-only signed-echo Worker on bare `workerd serve`",
  "hono-floor-help": "floor answering with ours' help (the same bytes) on bare `workerd serve`",
  bolt: "Bolt for JS on Node (HTTPReceiver)",
};

export type Served = {
  id: PeerId;
  url: string;
  /** Every process that serves a request (CPU and memory are summed over them). */
  pids(): number[];
  stop(): Promise<void>;
};
