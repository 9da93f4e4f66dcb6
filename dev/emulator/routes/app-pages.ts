import { Hono } from "hono";
import type { CollectionRecord, Org, RunRecord, SessionRecord, TestRecord } from "../model.ts";
import type { Store } from "../store.ts";

/**
 * A tiny stand-in for Decipher's web app, so links and "▶ Watch replay" buttons in the
 * sandbox open a page that exists: `/sessions/<id>` (who, when, the AI timeline),
 * `/tests/<id>` (recent runs), `/tests/<id>/runs/<runId>` and
 * `/monitoring/issue-collections/<id>` (the collection's latest sessions). Plain HTML, no scripts; only the
 * demo organizations are shown (the web app has no API key to pick an org by).
 */

const esc = (text: unknown) => String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const iso = (ms: number | null) =>
  ms === null ? "—" : new Date(ms).toISOString().replace("T", " ").slice(0, 19);

function page(title: string, body: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} · Decipher (emulator)</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem;color:#1d1c1d}
h1{font-size:1.4rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left}
.muted{color:#666}.failed{color:#c00}.passed{color:#070}.running{color:#06c}li{margin:.2rem 0}</style></head>
<body><p class="muted">Decipher web app — local emulator page</p>${body}</body></html>`;
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
}

function find<T>(orgs: Org[], pick: (org: Org) => T | undefined): T | undefined {
  for (const org of orgs) {
    const found = pick(org);
    if (found) return found;
  }
  return undefined;
}

function sessionPage(s: SessionRecord): Response {
  const t = s.timeline;
  const timeline = t
    ? `<h2>AI timeline</h2><p>${esc(t.overview)}</p><ol>${t.pages
        .map(
          (p) =>
            `<li><code>${esc(p.page)}</code> · ${p.clickCount} clicks<ul>${p.activities
              .map((a) => `<li>${esc(a.summary)} — <em>${esc(a.userAction)}</em></li>`)
              .join("")}</ul></li>`,
        )
        .join("")}</ol>`
    : `<p class="muted">No AI timeline for this session.</p>`;
  return page(
    `Session of ${s.userEmail}`,
    `<h1>▶ Session replay of ${esc(s.userEmail)}</h1>
<p>${esc(iso(s.createdAt))} UTC · ${s.duration === null ? "still recording" : `${esc(s.duration)} s`} · ${esc(s.browser)} · ${esc(s.device)} · ${esc(s.countryCode)}</p>
<p class="muted">Session <code>${esc(s.id)}</code> · ${s.clicks.length} clicks</p>${timeline}`,
  );
}

const runRow = (r: RunRecord, testId: number) =>
  `<tr><td><a href="/tests/${testId}/runs/${r.id}">#${r.id}</a></td><td class="${r.status}">${r.status}</td><td>${esc(iso(r.createdAt))}</td><td>${esc(r.summary?.oneLineSummary ?? "")}</td></tr>`;

function testPage(test: TestRecord, runs: RunRecord[]): Response {
  const recent = runs
    .filter((r) => r.testId === test.id)
    .sort((a, b) => b.id - a.id)
    .slice(0, 30);
  return page(
    test.name,
    `<h1>${esc(test.name)}</h1><p class="muted">Test ${test.id} · ${test.steps} steps</p>
<table><tr><th>Run</th><th>Status</th><th>Created (UTC)</th><th>Summary</th></tr>${recent.map((r) => runRow(r, test.id)).join("")}</table>`,
  );
}

function runPage(test: TestRecord, run: RunRecord): Response {
  return page(
    `${test.name} run #${run.id}`,
    `<h1><a href="/tests/${test.id}">${esc(test.name)}</a> · run #${run.id}</h1>
<p class="${run.status}">${run.status}${run.summary?.firstFailedStepNumber ? ` at step ${run.summary.firstFailedStepNumber} of ${run.totalSteps}` : ""} · ${run.failedSteps}/${run.totalSteps} steps failed</p>
<p>${esc(run.summary?.oneLineSummary ?? "")}</p>
<p class="muted">Created ${esc(iso(run.createdAt))} UTC · ended ${esc(iso(run.endTime))} · ${esc(run.triggeredBy)}</p>`,
  );
}

function collectionPage(c: CollectionRecord, sessions: SessionRecord[]): Response {
  const members = [...c.members].sort((a, b) => b.latestIssueAt - a.latestIssueAt).slice(0, 30);
  const rows = members
    .map((m) => {
      const s = sessions.find((x) => x.id === m.sessionId);
      return `<tr><td><a href="/sessions/${esc(m.sessionId)}">${esc(s?.userEmail ?? m.sessionId)}</a></td><td>${esc(iso(m.latestIssueAt))}</td><td>${m.errorCount}</td><td>${esc(m.aiSummary.behavior)}</td></tr>`;
    })
    .join("");
  return page(
    c.rootCause,
    `<h1>${esc(c.rootCause)}</h1><p class="muted">Issue collection ${c.id} · <code>${esc(c.shortenedPath)}</code> · ${c.isResolved ? "resolved" : "unresolved"} · ${c.members.length} sessions · since ${esc(iso(c.createdAt))} UTC</p>
<table><tr><th>Session</th><th>Latest issue (UTC)</th><th>Errors</th><th>What the user saw</th></tr>${rows}</table>`,
  );
}

const notFound = (what: string) => {
  const res = page("Not found", `<h1>Not found</h1><p>No ${esc(what)} in the demo organizations.</p>`);
  return new Response(res.body, { status: 404, headers: res.headers });
};

export function appPageRoutes(store: Store): Hono {
  const app = new Hono();
  app.get("/sessions/:id", (c) => {
    const id = c.req.param("id");
    const s = find(store.demoOrgs(), (org) => org.sessions.find((x) => x.id === id));
    return s ? sessionPage(s) : notFound(`session ${id}`);
  });
  app.get("/monitoring/issue-collections/:id", (c) => {
    const id = Number(c.req.param("id"));
    const hit = find(store.demoOrgs(), (org) => {
      const collection = org.collections.find((x) => x.id === id);
      return collection ? { collection, sessions: org.sessions } : undefined;
    });
    return hit ? collectionPage(hit.collection, hit.sessions) : notFound(`collection ${c.req.param("id")}`);
  });
  app.get("/tests/:id", (c) => {
    const id = Number(c.req.param("id"));
    const hit = find(store.demoOrgs(), (org) => {
      const test = org.tests.find((t) => t.id === id);
      return test ? { test, runs: org.runs } : undefined;
    });
    return hit ? testPage(hit.test, hit.runs) : notFound(`test ${c.req.param("id")}`);
  });
  app.get("/tests/:id/runs/:runId", (c) => {
    const id = Number(c.req.param("id"));
    const runId = Number(c.req.param("runId"));
    const hit = find(store.demoOrgs(), (org) => {
      const test = org.tests.find((t) => t.id === id);
      const run = org.runs.find((r) => r.id === runId && r.testId === id);
      return test && run ? { test, run } : undefined;
    });
    return hit
      ? runPage(hit.test, hit.run)
      : notFound(`run ${c.req.param("runId")} of test ${c.req.param("id")}`);
  });
  return app;
}
