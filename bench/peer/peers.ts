/**
 * The peer comparison of `npm run bench`: ours under `wrangler dev`, ours directly on workerd
 * (Miniflare, no dev proxy) and a Bolt for JavaScript app on Node, all against the same
 * emulator and Slack stand-in with the same signing secret and bot token.
 */
import type { Stack } from "../../dev/stack.ts";
import type { Size } from "../build.ts";
import { bundleBolt } from "./bolt-bundle.ts";
import { startBolt } from "./bolt-process.ts";
import { comparePeers, type PeerPlan, type PeerRow } from "./compare.ts";
import type { Served } from "./served.ts";
import { startWorkerd } from "./workerd-direct.ts";
import { startWorkerdServe } from "./workerd-serve.ts";
import { wranglerDev } from "./wrangler-dev.ts";

export type PeerFacts = { rows: PeerRow[]; bolt: Size; plan: PeerPlan };

export async function peerBenchmark(
  stack: Stack,
  buildDir: string,
  plan: PeerPlan,
  log: (line: string) => void = console.log,
): Promise<PeerFacts> {
  const bundle = await bundleBolt();
  const slackApiUrl = `${stack.slackUrl}/api/`;
  const started: Served[] = [];
  try {
    const vars = {
      DECIPHER_API_URL: stack.emulatorUrl,
      DECIPHER_API_KEY: stack.apiKey,
      SLACK_API_URL: slackApiUrl,
      SLACK_SIGNING_SECRET: stack.signingSecret,
      SLACK_BOT_TOKEN: stack.botToken,
    };
    started.push(await startWorkerd(buildDir, vars));
    started.push(await startWorkerdServe(buildDir, vars));
    started.push(
      await startBolt(bundle.file, {
        signingSecret: stack.signingSecret,
        botToken: stack.botToken,
        slackApiUrl,
        emulatorUrl: stack.emulatorUrl,
        apiKey: stack.apiKey,
      }),
    );
    const rows = await comparePeers(stack, [wranglerDev(stack), ...started], plan, log);
    return { rows, bolt: { rawBytes: bundle.rawBytes, gzipBytes: bundle.gzipBytes }, plan };
  } finally {
    for (const s of started) await s.stop().catch(() => {});
    bundle.remove();
  }
}
