/**
 * The dashboard's page, sent with its first screen already drawn (the same
 * building blocks the page's script uses), so it means something before the
 * live stream answers and even with scripts off. Its words live here so they
 * can be read as text; everything it loads comes from the dashboard itself.
 */
import { formatStamp } from "../present/format-time.js";
import { cardOrder, headerCounts } from "./client/counts.js";
import { renderCounts, renderNeeds, renderTimelineRow, renderWorktree } from "./client/render.js";
import { escapeHtml, toHtml } from "./client/vnode.js";
import { PAGE_MODULES } from "./page-modules.js";
import type { DashboardView } from "./view-types.js";

/** Cards and timeline rows the server draws; the page's script draws the rest. */
export const FIRST_SCREEN_CARDS = 6;
export const FIRST_SCREEN_ROWS = 50;

export function pageHtml(view: DashboardView): string {
	const context = { now: view.now, open: new Set<string>() };
	const cards = cardOrder(view.worktrees)
		.slice(0, FIRST_SCREEN_CARDS)
		.map((worktree) => toHtml(renderWorktree(worktree, context)))
		.join("\n");
	const more = view.worktrees.length - FIRST_SCREEN_CARDS;
	const rows = view.timeline
		.slice(-FIRST_SCREEN_ROWS)
		.reverse()
		.map((entry) => toHtml(renderTimelineRow(entry, false)))
		.join("\n");
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>boulder</title>
<link rel="stylesheet" href="/assets/app.css">
<link rel="preload" href="/api/view" as="fetch" crossorigin="use-credentials">
${PAGE_MODULES.filter((module) => module !== "ui/client/app.js")
	.map((module) => `<link rel="modulepreload" href="/assets/${module}">`)
	.join("\n")}
<script type="module" src="/assets/ui/client/app.js"></script>
</head>
<body data-version="${view.version}">
<a class="skip" href="#worktrees">Skip to the worktrees</a>
<a class="skip" href="#timeline">Skip to the timeline</a>
<header class="top">
  <h1>boulder <span class="dim">dashboard</span></h1>
  <div id="summary" class="summary" aria-live="polite">${toHtml(renderCounts(headerCounts(view.worktrees)))}</div>
  <p id="connection" class="connection" role="status" data-state="snapshot"><span class="dot" aria-hidden="true"></span><span class="words">as of ${escapeHtml(formatStamp(view.now))}</span></p>
  <button id="only-needs" type="button" class="quiet" aria-pressed="false" title="Show only the worktrees that need you (n)">Only what needs me</button>
  <button id="theme" type="button" class="quiet" title="Switch between light, dark and the system's theme (t)">Theme: system</button>
</header>
<p id="notice" class="notice" role="status" aria-live="polite" hidden></p>
<div id="index-problem" class="problem-banner" role="alert"${view.indexProblem === null ? " hidden" : ""}>${escapeHtml(view.indexProblem ?? "")}</div>
<div id="needs-slot">${toHtml(renderNeeds(view.worktrees))}</div>
<main class="layout">
  <section id="worktrees" class="worktrees" aria-label="Worktrees" tabindex="-1">
${cards.length > 0 ? cards : '<p class="empty">No worktrees known yet: `boulder start PLAN.md` in one adds it.</p>'}
${more > 0 ? `<p class="empty more">${more} more worktree(s): the page's script draws them.</p>` : ""}
  </section>
  <section id="timeline" class="timeline" aria-labelledby="timeline-title" tabindex="-1">
    <h2 id="timeline-title">Decisions, newest first</h2>
    <form id="filters" class="filters" role="search" aria-label="Filter the decisions">
      <label>Worktree <select id="filter-worktree"><option value="">all</option></select></label>
      <label>Session <select id="filter-session"><option value="">all</option></select></label>
      <label>Reason <select id="filter-reason"><option value="">all</option></select></label>
    </form>
    <ol id="timeline-list" class="timeline-list" aria-live="off">
${rows.length > 0 ? rows : '<li class="empty">No decisions match.</li>'}
    </ol>
  </section>
</main>
<footer class="foot dim">Keys: <kbd>/</kbd> filter the decisions · <kbd>n</kbd> only what needs me · <kbd>t</kbd> theme · <kbd>Tab</kbd> moves between buttons; every button says what it does. <noscript>Without scripts this is a snapshot: reload for a newer one, or <code>boulder status --all</code> in a terminal.</noscript></footer>
</body>
</html>
`;
}
