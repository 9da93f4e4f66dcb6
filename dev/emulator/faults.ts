/**
 * Injected failures: the next `count` calls of a route (of one org, or of anyone) fail in a
 * chosen way. Hung requests are tracked so the server can release them when it closes.
 */
export const routeNames = ["testRuns", "sessions", "timeline", "clicks", "collectionSessions"] as const;
export type RouteName = (typeof routeNames)[number];
export const faultKinds = [
  "429",
  "500",
  "hang",
  "malformed",
  "404",
  "401",
  "403",
  "repeat-cursor",
  "empty-has-more",
  "mixed-order",
] as const;
export type FaultKind = (typeof faultKinds)[number];

/**
 * Kinds that answer the call, then bend its list page the way a sloppy vendor would: the
 * cursor the request sent handed back again, an empty page that still says `hasMore`, or the
 * page's items out of order (so order is mixed across pages).
 */
export const pageFaultKinds: readonly FaultKind[] = ["repeat-cursor", "empty-has-more", "mixed-order"];

type ListPage = { data?: unknown[]; hasMore?: boolean; nextCursor?: string | null };

export function bendPage(kind: FaultKind, page: ListPage, requestCursor: string | undefined): ListPage {
  if (kind === "repeat-cursor")
    return requestCursor ? { ...page, hasMore: true, nextCursor: requestCursor } : page;
  if (kind === "empty-has-more")
    return { ...page, data: [], hasMore: true, nextCursor: page.nextCursor ?? requestCursor ?? null };
  if (kind === "mixed-order") return { ...page, data: [...(page.data ?? [])].reverse() };
  return page;
}

export type Fault = {
  id: number;
  apiKey: string | null;
  route: RouteName | "*";
  kind: FaultKind;
  remaining: number;
  retryAfter: number;
};

export type FaultRegistry = {
  add(fault: Omit<Fault, "id">): Fault;
  /** Consumes one use of the first fault matching this call, if any. */
  take(apiKey: string, route: RouteName): Fault | undefined;
  list(apiKey?: string): Fault[];
  clear(apiKey?: string): void;
  /** Waits until the client goes away, the cap passes, or the registry is released. */
  hang(signal: AbortSignal, capMs: number): Promise<void>;
  releaseHangs(): void;
};

export function createFaultRegistry(): FaultRegistry {
  let faults: Fault[] = [];
  let nextId = 1;
  const hung = new Set<() => void>();
  return {
    add(fault) {
      const f = { ...fault, id: nextId++ };
      faults.push(f);
      return f;
    },
    take(apiKey, route) {
      const f = faults.find(
        (x) => (x.apiKey === null || x.apiKey === apiKey) && (x.route === "*" || x.route === route),
      );
      if (!f) return undefined;
      f.remaining -= 1;
      if (f.remaining <= 0) faults = faults.filter((x) => x !== f);
      return f;
    },
    list: (apiKey) => faults.filter((f) => apiKey === undefined || f.apiKey === apiKey),
    clear(apiKey) {
      faults = apiKey === undefined ? [] : faults.filter((f) => f.apiKey !== apiKey);
    },
    hang(signal, capMs) {
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          hung.delete(done);
          resolve();
        };
        const timer = setTimeout(done, capMs);
        signal.addEventListener("abort", done);
        hung.add(done);
        if (signal.aborted) done();
      });
    },
    releaseHangs() {
      for (const done of [...hung]) done();
    },
  };
}
