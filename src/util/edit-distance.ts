/**
 * How many single-letter edits (insert, delete, replace, swap two neighbours) turn `a` into
 * `b`, counted no further than `max`: anything more comes back as `max + 1`. Short words
 * people mistype ("faild", "flakey", "chekout") are what it is for, not long texts.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, (before[j - 2] ?? 0) + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = row;
  }
  return Math.min(previous[b.length] ?? max + 1, max + 1);
}

/** The edits a typed word may be off by and still be taken for `word`: none for short words. */
export function typoAllowance(word: string): number {
  return word.length >= 8 ? 2 : word.length >= 4 ? 1 : 0;
}

/** `typed` is `word`, or `word` mistyped within its allowance. */
export function closeTo(typed: string, word: string): boolean {
  return typed === word || editDistance(typed, word, typoAllowance(word)) <= typoAllowance(word);
}
