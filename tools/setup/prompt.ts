// Questions for `npm run setup` on Node's own readline. One interface reads every answer in
// order, so answers piped in (a test's script) are not lost between questions; a secret's
// answer is read with the echo off and never written anywhere but to `wrangler secret put`.
import { createInterface } from "node:readline";
import { Writable } from "node:stream";

export type Prompt = {
  ask(question: string): Promise<string>;
  askSecret(question: string): Promise<string>;
  /** Lends the terminal to a command that may ask its own questions (wrangler's prompts). */
  hold<T>(command: () => Promise<T>): Promise<T>;
  close(): void;
};

export function terminalPrompt(input: NodeJS.ReadStream, output: NodeJS.WriteStream): Prompt {
  let muted = false;
  // Readline echoes what is typed to its output: while a secret is typed that output drops it.
  const echo = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) output.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input, output: echo, terminal: Boolean(input.isTTY) });
  const lines = rl[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const line = await lines.next();
    if (line.done) throw new Error("the input ended before every question was answered");
    // Piped answers are not echoed: end the question's line as a typed Enter would.
    if (!input.isTTY) output.write("\n");
    return line.value.trim();
  };
  return {
    async ask(question) {
      output.write(question);
      return next();
    },
    async askSecret(question) {
      output.write(question);
      muted = true;
      try {
        return await next();
      } finally {
        muted = false;
        if (input.isTTY) output.write("\n");
      }
    },
    async hold(command) {
      rl.pause();
      if (input.isTTY) input.setRawMode(false);
      try {
        return await command();
      } finally {
        if (input.isTTY) input.setRawMode(true);
        rl.resume();
      }
    },
    close: () => rl.close(),
  };
}
