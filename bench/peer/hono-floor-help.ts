/**
 * The floor (bench/peer/hono-echo.ts) answering every signed form with the bytes ours answers
 * `/decipher help` with: the help ack of src/handlers/help.ts, serialised once per isolate as
 * ours does. Beside the floor, it splits what ours spends above the floor into what any Worker
 * sending this answer spends (the answer's 2.7 KB) and what ours adds (its dispatch).
 */
import { helpAck } from "../../src/handlers/help.ts";
import { signedFloor } from "./hono-echo.ts";

export default signedFloor(() => {
  const ack = helpAck();
  return new Response(ack.body as string, { headers: { "content-type": ack.contentType as string } });
});
