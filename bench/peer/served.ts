/** One server under test: where to send requests and which processes do the work. */
export type Served = {
  name: string;
  url: string;
  /** Every process that serves a request (CPU and memory are summed over them). */
  pids(): number[];
  stop(): Promise<void>;
};
