/**
 * What a due report (the daily digest, the weekly report) has read so far, item by item, in its
 * channel object's SQLite storage: a big channel's report is read over several calls, each
 * within one invocation's subrequests (src/engine/report-reads.ts), and posted by the last.
 * Rows belong to one occurrence of one report (`<kind>:<due time>`); they go once it is sent,
 * skipped or retried from scratch.
 */
export class SqlReportReads {
  readonly #sql: SqlStorage;
  readonly #kind: string;
  readonly #report: string;

  static migrate(sql: SqlStorage): void {
    sql.exec(
      "CREATE TABLE IF NOT EXISTS report_reads (report TEXT NOT NULL, part TEXT NOT NULL, id INTEGER NOT NULL, line TEXT NOT NULL, PRIMARY KEY (report, part, id))",
    );
  }

  /** `kind` is the report (`digest`, `weekly`); `dueAt` the occurrence being read. */
  constructor(sql: SqlStorage, kind: string, dueAt: string) {
    SqlReportReads.migrate(sql);
    this.#sql = sql;
    this.#kind = kind;
    this.#report = `${kind}:${dueAt}`;
  }

  /** The lines of one part (`tests`, `collections`) read so far, by item id. */
  read<L>(part: string): Map<number, L> {
    const rows = this.#sql
      .exec<{ id: number; line: string }>(
        "SELECT id, line FROM report_reads WHERE report = ? AND part = ?",
        this.#report,
        part,
      )
      .toArray();
    return new Map(rows.map((r) => [r.id, JSON.parse(r.line) as L]));
  }

  add<L>(part: string, lines: ReadonlyMap<number, L>): void {
    for (const [id, line] of lines)
      this.#sql.exec(
        "INSERT OR REPLACE INTO report_reads (report, part, id, line) VALUES (?, ?, ?, ?)",
        this.#report,
        part,
        id,
        JSON.stringify(line),
      );
  }

  /** Forgets every occurrence of this report read so far (an older one left unsent included). */
  clear(): void {
    this.#sql.exec("DELETE FROM report_reads WHERE report LIKE ?", `${this.#kind}:%`);
  }
}
