import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

export default async function setup(project: TestProject) {
  const server = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ path: req.url }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  project.provide("emulatorUrl", `http://127.0.0.1:${port}`);
  project.provide("slackUrl", `http://127.0.0.1:${port}/api/`);
  return async () => {
    await new Promise((r) => server.close(r));
  };
}
