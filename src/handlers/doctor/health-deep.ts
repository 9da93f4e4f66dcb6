import { ConfigError, type Env, readConfig } from "../../config.ts";
import { doctorLines } from "../../messages/doctor-lines.ts";
import type { DoctorLine } from "../../model/doctor-line.ts";
import { createDeps, inRequest } from "../../wiring.ts";
import { readHealthState } from "../health-state.ts";
import { refuseUnsignedPath, signingKey } from "../signed-request.ts";
import { deploymentFacts, workspaceFacts } from "./deep-facts.ts";

const answer = (lines: DoctorLine[]) =>
  Response.json({ ok: lines.every((l) => l.ok), lines }, { headers: { "cache-control": "no-store" } });

/**
 * `GET /health/deep`: every check of the doctor (src/messages/doctor-lines.ts) for a request
 * signed with the signing secret (src/handlers/signed-request.ts `refuseUnsignedPath`); 401
 * otherwise, before any call to Slack or Decipher. A configuration problem is answered as
 * `/health` answers it, by name, since the secret to check a signature may be what is missing.
 */
export async function healthDeep(req: Request, env: Env): Promise<Response> {
  let config: ReturnType<typeof readConfig>;
  try {
    config = readConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return answer(
      error.problems.map((text) => ({
        check: "configuration",
        ok: false,
        text,
        fix: "set it, deploy, and run the doctor again",
      })),
    );
  }
  const refused = await refuseUnsignedPath(req, signingKey(config.slackSigningSecret));
  if (refused) return refused;
  return inRequest(async () => {
    const deps = config.install ? null : createDeps(config, env);
    const [workspace, state] = await Promise.all([
      deps ? workspaceFacts(deps) : null,
      readHealthState(env, config.plan),
    ]);
    return answer(
      doctorLines({
        multiWorkspace: !deps,
        token: null,
        neededScopes: [],
        decipher: null,
        channels: null,
        ...workspace,
        ...deploymentFacts(config, state),
      }),
    );
  });
}
