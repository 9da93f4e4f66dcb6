import { LEGACY_ENTRIES_PER_CYCLE } from "../model/poll-clock.ts";
import type { RegistryEntry } from "./registry-directory.ts";

/**
 * One row per subscription in a shard's SQLite: how its last reported poll went, and its
 * watchdog lease (`until`, ms): the time by which it must have told the registry again. The
 * cron asks for the rows whose lease has passed, reading the team's rows (no index on `until`: #35).
 */
export type ClockRow = {
  name: string;
  until: number;
  status: string | null;
  at: string | null;
  failing_since: string | null;
  overdue: number;
};

/**
 * One team's part of the registry that came before the shards (everything in the root object):
 * handed to the team's shard by the first watchdog cycles after a deploy, then deleted.
 */
export type LegacyPart = {
  teamId: string;
  entries: RegistryEntry[];
  leases: ClockRow[];
  digests: Record<string, string>;
};

export const teamOfName = (name: string) => name.split(":")[0] ?? "";

/**
 * The registry of before, split by team: the parts the next watchdog cycle hands over, as many
 * whole teams as fit in LEGACY_ENTRIES_PER_CYCLE entries (at least one).
 */
export function splitByTeam(
  index: Record<string, RegistryEntry>,
  digests: Record<string, string>,
  leases: ClockRow[],
): LegacyPart[] {
  const parts = new Map<string, LegacyPart>();
  const partOf = (teamId: string) => {
    const part = parts.get(teamId) ?? { teamId, entries: [], leases: [], digests: {} };
    parts.set(teamId, part);
    return part;
  };
  for (const entry of Object.values(index)) partOf(entry.ref.teamId).entries.push(entry);
  for (const lease of leases) if (index[lease.name]) partOf(teamOfName(lease.name)).leases.push(lease);
  for (const [name, dueAt] of Object.entries(digests)) partOf(teamOfName(name)).digests[name] = dueAt;
  const out: LegacyPart[] = [];
  let size = 0;
  for (const part of parts.values()) {
    if (out.length > 0 && size + part.entries.length > LEGACY_ENTRIES_PER_CYCLE) break;
    out.push(part);
    size += part.entries.length;
  }
  return out;
}
