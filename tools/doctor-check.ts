// The doctor's half that talks to the Worker (`npm run doctor`, tools/doctor.ts): fetch only,
// so tests run it inside workerd against the Worker itself (test/handlers/doctor-cli.test.ts).
import { slackSignature } from "../dev/slack/sign.ts";
import { type DoctorLine, doctorVerdict } from "../src/model/doctor-line.ts";

export type DoctorReport = { ok: boolean; lines: DoctorLine[] };

const DEEP_PATH = "/health/deep";

/** What the doctor says when the Worker refuses its signature. */
export const WRONG_SECRET: DoctorLine = {
  check: "signing secret",
  ok: false,
  text: "the Worker refused a request signed with this signing secret (401)",
  fix: "copy the Signing Secret from the Slack app's Basic Information page; if that is what you gave, the Worker has another one: run `wrangler secret put SLACK_SIGNING_SECRET` with it and deploy",
};

/**
 * Asks the Worker at `workerUrl` for its deep check, signed as Slack signs a request (the path
 * in place of the body, src/handlers/signed-request.ts `refuseUnsignedPath`), and turns every
 * way it can fail into one line with what to do.
 */
export async function runDoctor(
  workerUrl: string,
  secret: string,
  fetcher: (req: Request) => Promise<Response> = fetch,
  now: () => number = Date.now,
): Promise<DoctorReport> {
  const url = new URL(DEEP_PATH, workerUrl);
  const timestamp = String(Math.floor(now() / 1000));
  const request = new Request(url, {
    headers: {
      "x-slack-request-timestamp": timestamp,
      "x-slack-signature": await slackSignature(secret, timestamp, DEEP_PATH),
    },
  });
  let res: Response;
  try {
    res = await fetcher(request);
  } catch {
    return failed({
      check: "Worker",
      ok: false,
      text: `no answer from ${url.origin}`,
      fix: "check the URL (wrangler deploy prints it) and that the Worker is deployed",
    });
  }
  if (res.status === 401) return failed(WRONG_SECRET);
  const body = res.status === 200 ? ((await res.json().catch(() => null)) as DoctorReport | null) : null;
  if (!body || !Array.isArray(body.lines))
    return failed({
      check: "Worker",
      ok: false,
      text: `${url.origin}${DEEP_PATH} answered ${res.status}, not the doctor's report`,
      fix: "deploy this version of the bot (npm run deploy); an older one has no /health/deep",
    });
  return { ok: body.lines.every((l) => l.ok), lines: body.lines };
}

const failed = (line: DoctorLine): DoctorReport => ({ ok: false, lines: [line] });

/** One line a check, and under a failing one what to do. */
export function formatReport(report: DoctorReport): string {
  const lines = report.lines.flatMap((l) => [
    `${l.ok ? "✓" : "✗"} ${l.check}: ${l.text}`,
    ...(l.fix && !l.ok ? [`    → ${l.fix}`] : []),
  ]);
  return [...lines, doctorVerdict(report.lines)].join("\n");
}
