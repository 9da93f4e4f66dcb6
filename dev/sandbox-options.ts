import type { ScenarioName } from "./emulator/model.ts";

/**
 * What `npm start` reads from its environment, checked: the three ports and the emulator's
 * simulation. A value it cannot use is a sentence naming the variable and what it accepts,
 * never a silent default.
 *
 *   PORT_BOT / PORT_EMULATOR / PORT_SLACK   8787 / 8788 / 8790 (0 = any free port)
 *   SIMULATE                                cycle (default) | noisy | off
 */
export type SandboxOptions = {
  ports: { bot: number; emulator: number; slack: number };
  simulate: boolean;
  scenario: ScenarioName;
  /** WORKSPACES=2: multi-workspace mode, two workspaces each installed through Add to Slack. */
  workspaces: 1 | 2;
};

const SCENARIOS: Record<string, { simulate: boolean; scenario: ScenarioName }> = {
  cycle: { simulate: true, scenario: "cycle" },
  // `npm run emulator` takes SIMULATE=1 for the default script; so does npm start.
  "1": { simulate: true, scenario: "cycle" },
  noisy: { simulate: true, scenario: "noisy" },
  off: { simulate: false, scenario: "cycle" },
  "0": { simulate: false, scenario: "cycle" },
};

const DEFAULT_PORTS = { bot: 8787, emulator: 8788, slack: 8790 };

export function sandboxOptions(env: Record<string, string | undefined>): SandboxOptions | { error: string } {
  const ports = { ...DEFAULT_PORTS };
  for (const [key, name] of [
    ["bot", "PORT_BOT"],
    ["emulator", "PORT_EMULATOR"],
    ["slack", "PORT_SLACK"],
  ] as const) {
    const value = env[name]?.trim();
    if (value === undefined || value === "") continue;
    const port = Number(value);
    if (!/^\d+$/.test(value) || port > 65535) {
      return { error: `${name}=${value} is not a port: use a number from 0 (any free port) to 65535` };
    }
    ports[key] = port;
  }
  const asked = env.SIMULATE?.trim().toLowerCase() || "cycle";
  const simulation = SCENARIOS[asked];
  if (!simulation) {
    return {
      error: `SIMULATE=${env.SIMULATE} is not a scenario: use cycle (the default: every 20 s the demo tests fail and recover), noisy (flapping tests and an outage) or off`,
    };
  }
  const workspaces = env.WORKSPACES?.trim() || "1";
  if (workspaces !== "1" && workspaces !== "2") {
    return {
      error: `WORKSPACES=${env.WORKSPACES} is not 1 (the default: one workspace through SLACK_BOT_TOKEN) or 2 (Add to Slack, two workspaces)`,
    };
  }
  return { ports, ...simulation, workspaces: workspaces === "2" ? 2 : 1 };
}
