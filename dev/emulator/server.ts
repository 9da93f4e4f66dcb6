// STUB — replaced by the emulator work. Interface is fixed: see test/setup/global.ts.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type EmulatorOptions = { port?: number; host?: string; seed?: number; simulate?: boolean };
export type RunningServer = { url: string; close: () => Promise<void> };

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningServer> {
  const server = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ path: req.url }));
  });
  await new Promise<void>((r) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
