/** Text a person typed that the bot cannot read; `message` is shown to them as is. */
export class CommandInputError extends Error {
  override readonly name = "CommandInputError";
}
