import type { Config } from "../../config.ts";
import { VendorApiError } from "../../decipher/vendor-errors.ts";
import type { DecipherCheck, DoctorFacts } from "../../messages/doctor-lines.ts";
import { INSTALL_SCOPES } from "../../model/install-scopes.ts";
import { checkChannel, checkToken } from "../../slack-api/deployment-checks.ts";
import { mapLimit } from "../../util/map-limit.ts";
import type { Deps } from "../../wiring.ts";
import type { HealthState } from "../health-state.ts";
import { watchedChannels } from "../watched-channels.ts";

/**
 * Channels asked about at most: one `conversations.info` each, inside the invocation's 50
 * subrequests with auth.test and the Decipher read.
 */
const MAX_CHANNELS = 30;

/** One read with the key (a page of one session), as the Connect Decipher form checks a key. */
async function checkDecipher(deps: Pick<Deps, "vendor" | "config">): Promise<DecipherCheck> {
  try {
    await deps.vendor.listSessions({ limit: 1 });
    return { ok: true, keyEnding: deps.config.decipherApiKey.slice(-4) };
  } catch (error) {
    if (error instanceof VendorApiError) return { ok: false, status: error.status, code: error.type };
    return { ok: false, status: null, code: "no_answer" };
  }
}

/** The workspace's side: its token and scopes, its Decipher key, the bot in its channels. */
export async function workspaceFacts(
  deps: Deps,
): Promise<Pick<DoctorFacts, "token" | "neededScopes" | "decipher" | "channels">> {
  const [token, decipher, watched] = await Promise.all([
    checkToken(deps.slack),
    checkDecipher(deps),
    watchedChannels(deps).catch(() => new Set<string>()),
  ]);
  const all = [...watched].sort();
  const checked = await mapLimit(all.slice(0, MAX_CHANNELS), 6, (c) => checkChannel(deps.slack, c));
  return {
    token,
    neededScopes: (deps.config.install?.botScopes ?? INSTALL_SCOPES).split(","),
    decipher,
    channels: { checked, total: all.length },
  };
}

/** The deployment's side: how history is paced, the clocks and the day's budget. */
export function deploymentFacts(
  config: Config,
  state: HealthState | null,
): Pick<DoctorFacts, "distribution" | "clocks" | "governed"> {
  return {
    distribution: { tier: config.slackHistoryTier },
    clocks: state && {
      lastCycleAt: state.health.lastCycleAt,
      lastSuccessAt: state.health.lastSuccessAt,
      subscriptions: state.health.subscriptions,
      stale: state.stale,
      watchdogLate: state.watchdogLate,
    },
    governed: state?.governed ?? null,
  };
}
