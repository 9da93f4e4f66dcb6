/** A bounded-concurrency load generator on fetch, and the statistics the report needs. */

export type Sample = { ms: number; status: number };

/**
 * Sends `total` requests made by `make(i)` with at most `concurrency` in flight; every request
 * has its own timeout, so the loop is bounded in count and in time.
 */
export async function runLoad(
  total: number,
  concurrency: number,
  make: (i: number) => Promise<Request> | Request,
  timeoutMs = 10_000,
): Promise<Sample[]> {
  const samples: Sample[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const request = await make(i);
      const start = performance.now();
      let status = 0;
      try {
        const res = await fetch(request, { signal: AbortSignal.timeout(timeoutMs) });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        status = 0;
      }
      samples.push({ ms: performance.now() - start, status });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return samples;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export function summarize(samples: Sample[]) {
  const ms = samples.map((s) => s.ms);
  return {
    requests: samples.length,
    non2xx: samples.filter((s) => s.status < 200 || s.status > 299).length,
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    p99: percentile(ms, 99),
    max: Math.max(...ms),
  };
}

export function median(values: number[]): number {
  return percentile(values, 50);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
