// `npm run doctor -- <worker-url>`: the deployment checked as Slack and Decipher see it, one
// line each (tools/doctor-check.ts; the Worker's side is src/handlers/doctor/health-deep.ts).
// The signing secret comes from SLACK_SIGNING_SECRET, from .dev.vars for a local Worker
// (`npm start` writes it), or is asked for without echo: never an argument, which `ps` shows.
import { existsSync, readFileSync } from "node:fs";
import { stdin, stdout } from "node:process";
import { formatReport, runDoctor } from "./doctor-check.ts";

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

function devVarsSecret(): string | null {
  if (!existsSync(".dev.vars")) return null;
  const line = readFileSync(".dev.vars", "utf8")
    .split("\n")
    .find((l) => l.startsWith("SLACK_SIGNING_SECRET="));
  return line
    ? line
        .slice("SLACK_SIGNING_SECRET=".length)
        .trim()
        .replace(/^"(.*)"$/, "$1")
    : null;
}

/** Reads one line from the terminal without showing it. */
async function askHidden(question: string): Promise<string> {
  stdout.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  let typed = "";
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n") {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off("data", onData);
          stdout.write("\n");
          resolve(typed.trim());
          return;
        }
        if (ch === "\u0003") process.exit(130);
        typed = ch === "\u007f" ? typed.slice(0, -1) : typed + ch;
      }
    };
    stdin.on("data", onData);
  });
}

async function signingSecret(url: URL): Promise<string | null> {
  const fromEnv = process.env.SLACK_SIGNING_SECRET?.trim();
  if (fromEnv) return fromEnv;
  if (LOCAL_HOSTS.has(url.hostname)) {
    const local = devVarsSecret();
    if (local) return local;
  }
  if (!stdin.isTTY) return null;
  return askHidden("Signing Secret (the Slack app's Basic Information page; not shown): ");
}

async function main() {
  const arg = process.argv[2];
  const url = arg ? URL.parse(arg) : null;
  if (!url || !/^https?:$/.test(url.protocol)) {
    console.error("Usage: npm run doctor -- <worker-url>   (e.g. https://decipher-slack.<you>.workers.dev)");
    process.exit(2);
  }
  const secret = await signingSecret(url);
  if (!secret) {
    console.error(
      "No signing secret: set SLACK_SIGNING_SECRET, or run the doctor in a terminal to be asked.",
    );
    process.exit(2);
  }
  console.log(`Checking ${url.origin} as Slack and Decipher see it…`);
  const report = await runDoctor(url.href, secret);
  console.log(formatReport(report));
  process.exit(report.ok ? 0 : 1);
}

await main();
