/** One server under test: where to send requests and which processes do the work. */
export type PeerId = "wrangler" | "workerd" | "workerd-serve" | "bolt";

export const PEER_NAMES: Record<PeerId, string> = {
  wrangler: "ours under `wrangler dev`",
  workerd: "ours on workerd (Miniflare, no dev proxy)",
  "workerd-serve": "ours on bare `workerd serve` (no Miniflare)",
  bolt: "Bolt for JS on Node (HTTPReceiver)",
};

export type Served = {
  id: PeerId;
  url: string;
  /** Every process that serves a request (CPU and memory are summed over them). */
  pids(): number[];
  stop(): Promise<void>;
};
