import type { SlackEdgeAppEnv, SlackRequest, ViewSubmission } from "slack-edge";
import { createVendorClient } from "../../decipher/vendor-client.ts";
import { VendorApiError } from "../../decipher/vendor-errors.ts";
import {
  CONNECT_DECIPHER_ACTION_ID,
  CONNECT_DECIPHER_CALLBACK_ID,
  CONNECT_FIELDS,
  connectDecipherModal,
  notAllowedModal,
} from "../../messages/connect-decipher.ts";
import { classifySlackFailure } from "../../slack-api/slack-errors.ts";
import { isWorkspaceAdmin } from "../../slack-api/workspace-admin.ts";
import type { Deps, Tenant } from "../../wiring.ts";
import { refreshHome } from "../home/app-home.ts";
import type { LeanSlackApp } from "../lean-slack-app.ts";

type Values = Record<
  string,
  Record<string, { value?: string | null; selected_users?: string[]; selected_options?: unknown[] }>
>;
type Submission = SlackRequest<SlackEdgeAppEnv, ViewSubmission>;

/** The key check runs inside the form's 3 s ack: one attempt, bounded. */
const CHECK_TIMEOUT_MS = 2_000;
const KEY_SHAPE = /^[\x21-\x7e]{8,200}$/;

/** Whoever installed the app, a bot admin, or a Slack workspace admin or owner (users.info). */
async function mayConnect(deps: Deps, tenant: Tenant, userId: string): Promise<boolean> {
  if (userId === tenant.installerUserId || tenant.admins.includes(userId)) return true;
  return isWorkspaceAdmin(deps.slack, userId);
}

/** A read call with the key: null when Decipher accepts it, else the sentence to show under the field. */
export async function checkDecipherKey(deps: Deps, key: string): Promise<string | null> {
  if (!KEY_SHAPE.test(key))
    return "This does not look like a Decipher API key (no spaces, 8 to 200 characters).";
  const vendor = createVendorClient({
    baseUrl: deps.config.decipherApiUrl,
    apiKey: key,
    timeoutMs: CHECK_TIMEOUT_MS,
    retry: { attempts: 1 },
  });
  try {
    await vendor.listSessions({ limit: 1 });
    return null;
  } catch (error) {
    if (error instanceof VendorApiError && (error.status === 401 || error.status === 403))
      return "Decipher rejected this key. Copy it again from Decipher (Settings → API keys).";
    return "Decipher did not answer the check in time. Try again in a moment.";
  }
}

function read(values: Values) {
  return {
    key: (values[CONNECT_FIELDS.key]?.value?.value ?? "").trim(),
    remove: (values[CONNECT_FIELDS.remove]?.value?.selected_options ?? []).length > 0,
    admins: values[CONNECT_FIELDS.admins]?.value?.selected_users ?? [],
  };
}

/** Registers the Home tab's Connect Decipher button and form (multi-workspace mode only). */
export function registerConnectDecipher(app: LeanSlackApp, deps: Deps): void {
  const tenant = deps.tenant;
  if (!tenant) return;
  app.action(
    CONNECT_DECIPHER_ACTION_ID,
    async () => {},
    async (req) => {
      const triggerId = req.payload.trigger_id;
      if (!triggerId) return;
      const allowed = await mayConnect(deps, tenant, req.payload.user.id);
      const view = allowed
        ? connectDecipherModal(await tenant.keyInfo(), tenant.admins)
        : notAllowedModal(tenant.installerUserId);
      await deps.slack.views
        .open({ trigger_id: triggerId, view })
        .catch((error: unknown) => console.warn(`views.open failed (${classifySlackFailure(error).code})`));
    },
  );
  app.viewSubmission(
    CONNECT_DECIPHER_CALLBACK_ID,
    async (req: Submission) => {
      const userId = req.payload.user.id;
      if (!(await mayConnect(deps, tenant, userId)))
        return {
          response_action: "errors" as const,
          errors: { [CONNECT_FIELDS.key]: "You may not change this." },
        };
      const form = read(req.payload.view.state.values as Values);
      if (form.key && !form.remove) {
        const problem = await checkDecipherKey(deps, form.key);
        if (problem) return { response_action: "errors" as const, errors: { [CONNECT_FIELDS.key]: problem } };
        await tenant.setKey(form.key, userId, deps.now());
      } else if (form.remove) {
        await tenant.removeKey();
      } else if (!(await tenant.keyInfo())) {
        return {
          response_action: "errors" as const,
          errors: { [CONNECT_FIELDS.key]: "Paste a Decipher API key." },
        };
      }
      await tenant.setAdmins(form.admins);
      return "";
    },
    async (req: Submission) => {
      await refreshHome(deps, req.payload.user.id, tenant.teamId, null).catch(() => {});
    },
  );
}
