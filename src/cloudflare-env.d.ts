// Tells the runtime types (and `cloudflare:test`) what this Worker's env and exports are.
declare namespace Cloudflare {
  type WorkerEnv = import("./env.ts").Env;
  interface GlobalProps {
    mainModule: typeof import("./index.ts");
  }
  interface Env extends WorkerEnv {}
}
