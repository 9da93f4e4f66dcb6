import { ON_PURPOSE } from "../helpers/on-purpose.ts";

type Write = (chunk: unknown, ...rest: unknown[]) => boolean;

/** The stream's lines without the report of an abort made on purpose and its `stack:` line. */
function withoutOnPurpose(write: Write): Write {
  let dropStack = false;
  return (chunk, ...rest) => {
    const text = typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) ? chunk.toString("utf8") : null;
    if (text === null || (!text.includes(ON_PURPOSE) && !dropStack)) return write(chunk, ...rest);
    const kept = text
      .split(/(?<=\n)/)
      .filter((line) => {
        if (line.includes(ON_PURPOSE)) {
          dropStack = true;
          return false;
        }
        const stack = dropStack && line.startsWith("stack: ");
        dropStack = false;
        return !stack;
      })
      .join("");
    if (kept.length > 0) return write(kept, ...rest);
    const done = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
    done?.();
    return true;
  };
}

/**
 * workerd reports every Durable Object abort as an "uncaught exception" with its stack, and the
 * vitest plugin prints it from this process (on stdout or stderr, by its level). The aborts a
 * test makes on purpose (test/helpers/on-purpose.ts) are kept out, so any such line left in
 * the output is a real failure. Returns the undo.
 */
export function quietOnPurposeAborts(streams = [process.stdout, process.stderr]): () => void {
  const undo = streams.map((stream) => {
    const write = stream.write;
    stream.write = withoutOnPurpose(write.bind(stream) as Write) as typeof stream.write;
    return () => {
      stream.write = write;
    };
  });
  return () => {
    for (const u of undo) u();
  };
}
