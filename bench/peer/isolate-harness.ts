/**
 * The Worker bench/peer/isolate-acks.ts serves: `GET /acks?n=N` builds N signed `/decipher help`
 * requests and hands each, in turn, to the Worker under test (`bench-target`, aliased at bundle
 * time) in this same isolate, without HTTP; `&only=1` builds and reads the requests only, the
 * harness's own share. The target's Durable Object classes are re-exported so its module loads.
 */
// @ts-expect-error: resolved by esbuild's alias (bench/peer/isolate-acks.ts)
import target from "bench-target";
import { slashCommandFor } from "../../dev/slack/payloads.ts";
import { signSlackRequest } from "../../dev/slack/sign.ts";

// @ts-expect-error: resolved by esbuild's alias (bench/peer/isolate-acks.ts)
export * from "bench-target-objects";

type Target = { fetch(req: Request, env: unknown, ctx: unknown): Promise<Response> };
type Env = { SLACK_SIGNING_SECRET: string };

export default {
  async fetch(req: Request, env: Env, ctx: unknown): Promise<Response> {
    const url = new URL(req.url);
    if (url.pathname === "/health") return new Response("ok");
    const n = Number(url.searchParams.get("n") ?? "100");
    const only = url.searchParams.get("only") === "1";
    const body = slashCommandFor({
      teamId: "T0TEST",
      channelId: "C0ALERTS",
      userId: "U0ALICE",
      command: "/decipher",
      text: "help",
      responseUrl: "https://hooks.slack.com/commands/T0TEST/1/bench",
    });
    const headers = {
      "content-type": "application/x-www-form-urlencoded",
      // Slack always declares the length; the signature check reads such a body in one piece.
      "content-length": String(new TextEncoder().encode(body).byteLength),
      ...(await signSlackRequest(env.SLACK_SIGNING_SECRET, body, Math.floor(Date.now() / 1000))),
    };
    let bytes = 0;
    for (let i = 0; i < n; i++) {
      const request = new Request(`${url.origin}/slack/events`, { method: "POST", headers, body });
      if (only) {
        bytes += (await request.text()).length;
        continue;
      }
      const res = await (target as Target).fetch(request, env, ctx);
      const text = await res.text();
      if (res.status !== 200) return new Response(`the target answered ${res.status}`, { status: 500 });
      bytes += text.length;
    }
    return new Response(`${n} acks, ${bytes} bytes`);
  },
};
