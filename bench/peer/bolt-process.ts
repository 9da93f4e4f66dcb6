/** Starts the bundled Bolt app (bolt-bundle.ts) as its own Node process, so its CPU and memory are its own. */
import { spawn } from "node:child_process";
import { ROOT } from "../../dev/stack.ts";
import { freePort, onServerCpus, servedChild } from "./child.ts";
import type { Served } from "./served.ts";

export type BoltConfig = {
  signingSecret: string;
  botToken: string;
  slackApiUrl: string;
  emulatorUrl: string;
  apiKey: string;
};

/** Starts the process without waiting for it to listen. */
export async function spawnBolt(file: string, config: BoltConfig) {
  const port = await freePort();
  const child = spawn(...onServerCpus(process.execPath, [file]), {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(port),
      SLACK_SIGNING_SECRET: config.signingSecret,
      SLACK_BOT_TOKEN: config.botToken,
      SLACK_API_URL: config.slackApiUrl,
      DECIPHER_API_URL: config.emulatorUrl,
      DECIPHER_API_KEY: config.apiKey,
    },
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

export async function startBolt(file: string, config: BoltConfig, timeoutMs = 30_000): Promise<Served> {
  const { child, url } = await spawnBolt(file, config);
  const served = servedChild("bolt", url, child);
  let output = "";
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Bolt app not ready:\n${output}`)), timeoutMs);
    const onData = (d: Buffer) => {
      output += d;
      if (output.includes("listening")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`Bolt app exited (${code}):\n${output}`)));
  });
  await ready.catch(async (error) => {
    await served.stop();
    throw error;
  });
  return served;
}
