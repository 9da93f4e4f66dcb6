import { env } from "cloudflare:test";
import { expect, it } from "vitest";

it("reaches loopback", async () => {
  const res = await fetch(`${env.DECIPHER_API_URL}/x`);
  expect(await res.json()).toEqual({ path: "/x" });
});
