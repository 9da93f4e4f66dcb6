/**
 * Who holds the installer's rights (connecting the Decipher key, naming bot admins:
 * src/handlers/install/connect-decipher.ts) after an Add to Slack. Slack lets any member
 * allowed to add apps approve the app again; that alone passes none of those rights. They pass
 * only to someone who holds them already (a bot admin) or whom Slack reports as a workspace
 * admin or owner.
 */
export function installerAfter(
  existing: { installerUserId: string; admins: readonly string[] } | undefined,
  by: string,
  byIsWorkspaceAdmin: boolean,
): { installerUserId: string; keptFrom: string | null } {
  if (!existing?.installerUserId || existing.installerUserId === by)
    return { installerUserId: by, keptFrom: null };
  if (byIsWorkspaceAdmin || existing.admins.includes(by)) return { installerUserId: by, keptFrom: null };
  return { installerUserId: existing.installerUserId, keptFrom: existing.installerUserId };
}
