import { describe, expect, it } from "vitest";
import { createEmulatorApp } from "../../dev/emulator/emulator-app.ts";
import { sandboxOptions } from "../../dev/sandbox-options.ts";

// `SIMULATE=noisy npm start`: dev/start.ts reads its environment with sandboxOptions and hands
// the scenario to the emulator it starts (dev/stack.ts → startEmulator).

/** The demo org's first tick under the scenario `npm start` would pick from `env`. */
function firstTick(env: Record<string, string>) {
  const options = sandboxOptions(env);
  if ("error" in options) throw new Error(options.error);
  const emulator = createEmulatorApp({ seed: 1, scenario: options.scenario });
  return { options, changes: emulator.tickDemo().dcp_demo_acme ?? [] };
}

describe("npm start's SIMULATE", () => {
  it("SIMULATE=noisy runs the noisy scenario: page traffic on every tick", () => {
    const { options, changes } = firstTick({ SIMULATE: "noisy" });
    expect(options).toMatchObject({ simulate: true, scenario: "noisy" });
    expect(changes.some((c) => c.kind === "pageSessions" && c.path === "/checkout")).toBe(true);
  });

  it("without SIMULATE runs the four-step cycle, as before", () => {
    const { options, changes } = firstTick({});
    expect(options).toMatchObject({ simulate: true, scenario: "cycle" });
    expect(
      changes.filter((c) => c.kind === "run").map((c) => c.kind === "run" && [c.testId, c.status]),
    ).toEqual([
      [101, "failed"],
      [103, "running"],
    ]);
    expect(changes.some((c) => c.kind === "pageSessions")).toBe(false);
  });

  it("SIMULATE=off starts the emulator without its timer", () => {
    expect(sandboxOptions({ SIMULATE: "off" })).toMatchObject({ simulate: false });
  });

  it("names the variable and what it accepts when a value is wrong", () => {
    expect(sandboxOptions({ SIMULATE: "nosy" })).toEqual({
      error: expect.stringMatching(/^SIMULATE=nosy is not a scenario: use cycle .*, noisy .* or off$/),
    });
    expect(sandboxOptions({ PORT_BOT: "87a7" })).toEqual({
      error: "PORT_BOT=87a7 is not a port: use a number from 0 (any free port) to 65535",
    });
    expect(sandboxOptions({ PORT_SLACK: "9790", PORT_EMULATOR: "0" })).toMatchObject({
      ports: { bot: 8787, emulator: 0, slack: 9790 },
    });
    expect(sandboxOptions({ WORKSPACES: "3" })).toEqual({
      error: expect.stringMatching(/^WORKSPACES=3 is not 1 .* or 2 /),
    });
  });

  it("stays in single-workspace mode unless WORKSPACES=2 asks for Add to Slack", () => {
    expect(sandboxOptions({})).toMatchObject({ workspaces: 1 });
    expect(sandboxOptions({ WORKSPACES: "2" })).toMatchObject({ workspaces: 2 });
  });
});
