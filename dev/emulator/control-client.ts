/**
 * The one client of the emulator's control API (`/__emulator/…`, dev/emulator/README.md), for
 * the test suites, the benchmarks and `npm start` alike. An answer other than 2xx throws with
 * the route and the emulator's own error body.
 */

import type { Fault, FaultKind, RouteName } from "./faults.ts";

export type RunStatus = "passed" | "failed" | "running";
export type ControlRun = { id: number; status: string; testId: number; createdAt: string };
export type RunPatch = { status?: RunStatus | string; raw?: Record<string, unknown> | null };
export type RequestCounts = { total: number; byRoute: Record<RouteName, number> };
/** What a simulation step or a scenario's start changed, by organization key. */
export type SimulationChanges = { changes: Record<string, unknown[]> };

export type EmulatorControl = ReturnType<typeof emulatorControl>;
export type EmulatorOrg = ReturnType<EmulatorControl["org"]>;

export function emulatorControl(baseUrl: string) {
  const root = `${baseUrl.replace(/\/$/, "")}/__emulator`;

  async function call<T>(method: string, path: string, body?: Record<string, unknown>): Promise<T> {
    const res = await fetch(`${root}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`emulator ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }

  function org(apiKey: string) {
    const withKey = (body: Record<string, unknown> = {}) => ({ apiKey, ...body });
    const query = `?apiKey=${encodeURIComponent(apiKey)}`;
    return {
      apiKey,
      /** A run with optional `createdAt` (ISO) and `raw` wire fields served verbatim. */
      addRun: (
        testId: number,
        status: RunStatus,
        extra: { createdAt?: string; raw?: Record<string, unknown> } & Record<string, unknown> = {},
      ) => call<ControlRun>("POST", `/tests/${testId}/runs`, withKey({ status, ...extra })),
      /** `passedFirst` passed runs (default 20), then one failed run: a new failure whatever the history. */
      newFailure: (testId: number, passedFirst?: number) =>
        call<{ passed: number[]; failed: ControlRun }>(
          "POST",
          `/tests/${testId}/new-failure`,
          withKey(passedFirst === undefined ? {} : { passedFirst }),
        ),
      /** A new status (`"failed"`), or a patch of status and raw wire fields. */
      setRun: (runId: number, change: RunStatus | RunPatch) =>
        call<ControlRun>(
          "PATCH",
          `/runs/${runId}`,
          withKey(typeof change === "string" ? { status: change } : change),
        ),
      addTest: (name: string) => call<{ id: number; name: string }>("POST", "/tests", withKey({ name })),
      /** A new unresolved collection with no sessions (`path` defaults to `/`). */
      addCollection: (rootCause: string, path?: string) =>
        call<{ id: number; rootCause: string; sessionCount: number }>(
          "POST",
          "/collections",
          withKey({ rootCause, ...(path === undefined ? {} : { path }) }),
        ),
      grow: (collectionId: number, count: number) =>
        call<{ collection: { sessionCount: number }; sessionIds: string[] }>(
          "POST",
          `/collections/${collectionId}/sessions`,
          withKey({ count }),
        ),
      expire: (collectionId: number, count: number) =>
        call<{ collection: { sessionCount: number } }>(
          "POST",
          `/collections/${collectionId}/expire`,
          withKey({ count }),
        ),
      /** Deleted at Decipher: from now on the API answers 404 for it. */
      deleteTest: (testId: number) => call("DELETE", `/tests/${testId}${query}`),
      deleteCollection: (collectionId: number) => call("DELETE", `/collections/${collectionId}${query}`),
      resolve: (collectionId: number, isResolved: boolean) =>
        call<{ isResolved: boolean }>("PATCH", `/collections/${collectionId}`, withKey({ isResolved })),
      listOrder: (order: "newest" | "oldest") => call("POST", "/list-order", withKey({ order })),
      fault: (route: RouteName | "*", kind: FaultKind, count = 1, retryAfter?: number) =>
        call(
          "POST",
          "/faults",
          withKey({ route, kind, count, ...(retryAfter === undefined ? {} : { retryAfter }) }),
        ),
      faults: async () => (await call<{ faults: Fault[] }>("GET", `/faults${query}`)).faults,
      clearFaults: () => call("DELETE", `/faults${query}`),
      requests: () => call<RequestCounts>("GET", `/requests${query}`),
      /** All vendor requests of this organization so far (what polls cost at the vendor). */
      requestTotal: async () => (await call<RequestCounts>("GET", `/requests${query}`)).total,
      clearRequests: () => call("DELETE", `/requests${query}`),
      scenario: (name: "cycle" | "noisy") => call<SimulationChanges>("POST", "/scenario", withKey({ name })),
      tick: () => call<SimulationChanges>("POST", "/tick", withKey()),
      /** The organization regenerated from its template, its faults dropped. */
      reset: () => call("POST", "/reset", withKey()),
    };
  }

  return {
    call,
    /** A fresh organization holding a copy of a template, so a caller may change it freely. */
    newOrg: async (template: "acme" | "globex" = "acme") =>
      (await call<{ apiKey: string }>("POST", "/orgs", { template })).apiKey,
    org,
  };
}
