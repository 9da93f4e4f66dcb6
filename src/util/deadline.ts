/**
 * `work`'s answer, or `late()`'s once `ms` have passed without one: for a person or Slack who
 * will not wait longer. The work is not cancelled; what it does after the deadline is its own.
 */
export function withDeadline<T, L>(work: Promise<T>, ms: number, late: () => L): Promise<T | L> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<L>((resolve) => {
    timer = setTimeout(() => resolve(late()), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
