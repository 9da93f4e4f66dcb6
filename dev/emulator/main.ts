import { demoKeys } from "./data/templates.ts";
import { startEmulator } from "./server.ts";

/** `npm run emulator`: PORT (8788), SEED (1), SIMULATE=1|noisy or --simulate[=noisy], APP_URL. */
const port = Number(process.env.PORT ?? 8788);
const seed = Number(process.env.SEED ?? 1);
const scenario =
  process.env.SIMULATE === "noisy" || process.argv.includes("--simulate=noisy") ? "noisy" : "cycle";
const simulate = scenario === "noisy" || process.env.SIMULATE === "1" || process.argv.includes("--simulate");
if (!Number.isInteger(port) || !Number.isInteger(seed)) {
  console.error("PORT and SEED must be integers");
  process.exit(2);
}

const server = await startEmulator({
  port,
  seed,
  simulate,
  scenario,
  host: "127.0.0.1",
  appUrl: process.env.APP_URL,
});
console.log(
  `Decipher API emulator on ${server.url}  (seed ${seed}${simulate ? `, simulating every 20 s (${scenario})` : ""})`,
);
console.log(`  Acme:   ${demoKeys.acme}    tests 101 102 103, collections 501 502`);
console.log(`  Globex: ${demoKeys.globex}  test 201, collection 601`);
console.log(`  try:    curl -H 'Authorization: Bearer ${demoKeys.acme}' ${server.url}/api/v1/tests/101/runs`);
console.log(
  `  spec:   ${server.url}/openapi.json   control: ${server.url}/__emulator/…  (see dev/emulator/README.md)`,
);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await server.close();
  console.log("emulator stopped");
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
