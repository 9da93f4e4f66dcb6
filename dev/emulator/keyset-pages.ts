/**
 * Keyset pagination over a list sorted newest first by (time, id), or oldest first when an
 * org is set to list that way (control API). A page resumes strictly
 * after the last item served, so items inserted meanwhile at the top never shift a page and
 * nothing is served twice or skipped.
 */
export type Position = { t: number; id: string | number };

export function compareDesc(a: Position, b: Position): number {
  if (a.t !== b.t) return b.t - a.t;
  if (a.id === b.id) return 0;
  return a.id < b.id ? 1 : -1;
}

export function page<T>(
  items: readonly T[],
  key: (item: T) => Position,
  after: Position | undefined,
  limit: number,
  order: "newest" | "oldest" = "newest",
): { items: T[]; hasMore: boolean; last: Position | undefined } {
  const compare = order === "newest" ? compareDesc : (a: Position, b: Position) => compareDesc(b, a);
  const sorted = [...items].sort((a, b) => compare(key(a), key(b)));
  const start = after ? sorted.filter((item) => compare(key(item), after) > 0) : sorted;
  const items_ = start.slice(0, limit);
  const lastItem = items_.at(-1);
  return {
    items: items_,
    hasMore: start.length > limit,
    last: lastItem === undefined ? undefined : key(lastItem),
  };
}
