/**
 * Simulated time for `npm run bench:day`: `Date` in the isolate (the harness's and the objects'
 * alike: under vitest-pool-workers they share it) reads the harness's clock, which moves only when
 * the harness moves it; and a queue of what is due when (the objects' alarms, the day's events).
 */

const RealDate = Date;
let simNow = RealDate.now();

export const simTime = () => simNow;

/** Moves the simulated clock (never back). */
export function setSimTime(ms: number): void {
  if (ms > simNow) simNow = ms;
}

/** From now on `Date` reads the simulated clock; returns the function that undoes it. */
export function installSimClock(startMs: number): () => void {
  simNow = startMs;
  class SimDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(simNow);
      else super(...(args as [string | number]));
    }
    static override now() {
      return simNow;
    }
  }
  globalThis.Date = SimDate as DateConstructor;
  return () => {
    globalThis.Date = RealDate;
  };
}

/** The wall clock, whatever `Date` reads. */
export const wallNow = () => RealDate.now();

type Entry<T> = { at: number; seq: number; item: T };

/** A min-heap of items by time (ties in the order they were added). */
export class TimeQueue<T> {
  #heap: Entry<T>[] = [];
  #seq = 0;

  get size() {
    return this.#heap.length;
  }

  push(at: number, item: T): void {
    const h = this.#heap;
    h.push({ at, seq: this.#seq++, item });
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.#less(h[i] as Entry<T>, h[p] as Entry<T>)) break;
      [h[i], h[p]] = [h[p] as Entry<T>, h[i] as Entry<T>];
      i = p;
    }
  }

  peekAt(): number {
    return this.#heap[0]?.at ?? Number.POSITIVE_INFINITY;
  }

  pop(): { at: number; item: T } | undefined {
    const h = this.#heap;
    const top = h[0];
    const last = h.pop();
    if (!top || !last) return undefined;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.#less(h[l] as Entry<T>, h[m] as Entry<T>)) m = l;
        if (r < h.length && this.#less(h[r] as Entry<T>, h[m] as Entry<T>)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m] as Entry<T>, h[i] as Entry<T>];
        i = m;
      }
    }
    return { at: top.at, item: top.item };
  }

  #less(a: Entry<T>, b: Entry<T>) {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }
}
