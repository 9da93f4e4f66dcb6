/**
 * Runs work one piece at a time, in the order it was asked for. A Durable Object interleaves
 * requests while it awaits a `fetch`, so its input gate alone does not keep two polls (or a poll
 * and a button click) from interleaving on the same state; this queue does. A failed piece
 * never blocks the next.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(work, work);
    this.#tail = next.catch(() => {});
    return next;
  }
}
