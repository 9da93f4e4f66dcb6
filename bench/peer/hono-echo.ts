/**
 * The floor of the edge comparison (bench/peer/edge.ts): the least a Worker on workerd can do for
 * a slash command and still be a Slack app. Hono routes; the signature is checked once with
 * `crypto.subtle.verify` and a key imported once per isolate; the form is parsed; the ack echoes
 * the command as an ephemeral reply. No framework, no handler, no lazy half. Bundled by
 * bench/peer/hono-echo-bundle.ts and served on a bare `workerd serve` like ours.
 */
import { Hono } from "hono";

type Bindings = { SLACK_SIGNING_SECRET: string };
/** What the floor answers a signed form with. */
export type FloorAnswer = (form: URLSearchParams) => Response;

const encoder = new TextEncoder();

function hexBytes(hex: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[0-9a-f]{64}$/.test(hex)) return null;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** The floor Worker, answering each signed form with `answer` (bench/peer/hono-floor-help.ts varies it). */
export function signedFloor(answer: FloorAnswer): Hono<{ Bindings: Bindings }> {
  const app = new Hono<{ Bindings: Bindings }>();
  let key: Promise<CryptoKey> | null = null;

  app.get("/health", (c) => c.text("ok"));

  app.post("/slack/events", async (c) => {
    const timestamp = c.req.header("x-slack-request-timestamp") ?? "";
    const signature = hexBytes((c.req.header("x-slack-signature") ?? "").slice(3));
    if (!signature || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return c.text("", 401);
    const body = new Uint8Array(await c.req.arrayBuffer());
    const prefix = encoder.encode(`v0:${timestamp}:`);
    const signed = new Uint8Array(prefix.length + body.length);
    signed.set(prefix);
    signed.set(body, prefix.length);
    key ??= crypto.subtle.importKey(
      "raw",
      encoder.encode(c.env.SLACK_SIGNING_SECRET),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["verify"],
    );
    if (!(await crypto.subtle.verify("HMAC", await key, signature, signed))) return c.text("", 401);
    return answer(new URLSearchParams(new TextDecoder().decode(body)));
  });
  return app;
}

export default signedFloor((form) =>
  Response.json({ response_type: "ephemeral", text: `${form.get("command")} ${form.get("text")}` }),
);
