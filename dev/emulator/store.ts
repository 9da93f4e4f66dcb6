import { generateOrg } from "./data/generate-org.ts";
import { demoKeys } from "./data/templates.ts";
import type { Org, TemplateName } from "./model.ts";
import { createRng, type Rng } from "./rng.ts";

/**
 * All organizations, found by API key. The two demo orgs always exist; tests add isolated
 * copies of a template through the control API and may mutate them freely.
 */
export type Store = {
  readonly seed: number;
  byKey(apiKey: string): Org | undefined;
  /** By the org's id, as screenshot URLs name it. */
  byId(id: string): Org | undefined;
  demoOrgs(): Org[];
  createTestOrg(template: TemplateName): Org;
  /** Regenerates one org from its template (same key), or everything when no key is given. */
  reset(apiKey?: string): boolean;
};

export function createStore(seed: number, now: () => number): Store {
  const orgs = new Map<string, Org>();
  const demo = (template: TemplateName) =>
    generateOrg(template, seed, now(), {
      id: `org_${template}`,
      name: template === "acme" ? "Acme" : "Globex",
      apiKey: demoKeys[template],
    });
  const loadDemo = () => {
    for (const t of ["acme", "globex"] as const) orgs.set(demoKeys[t], demo(t));
  };
  loadDemo();
  return {
    seed,
    byKey: (apiKey) => orgs.get(apiKey),
    byId: (id) => [...orgs.values()].find((o) => o.id === id),
    demoOrgs: () =>
      (["acme", "globex"] as const).map((t) => orgs.get(demoKeys[t])).filter((o) => o !== undefined),
    createTestOrg(template) {
      const suffix = [...crypto.getRandomValues(new Uint8Array(12))]
        .map((b) => b.toString(16).padStart(2, "0"))
        .join("");
      const base = demo(template);
      const org: Org = {
        ...base,
        id: `org_test_${suffix}`,
        name: `${base.name} (test)`,
        apiKey: `dcp_test_${suffix}`,
      };
      orgs.set(org.apiKey, org);
      return org;
    },
    reset(apiKey) {
      if (apiKey === undefined) {
        orgs.clear();
        loadDemo();
        return true;
      }
      const org = orgs.get(apiKey);
      if (!org) return false;
      const fresh = generateOrg(org.template, seed, now(), {
        id: org.id,
        name: org.name,
        apiKey: org.apiKey,
      });
      orgs.set(apiKey, fresh);
      return true;
    },
  };
}

/** Runs `fn` with the org's own random stream and saves where it stopped (determinism). */
export function withOrgRng<T>(org: Org, fn: (rng: Rng) => T): T {
  const rng = createRng(org.sim.rngState);
  const result = fn(rng);
  org.sim.rngState = rng.state();
  return result;
}
