/**
 * The dashboard's page: a shell the script fills. Its words live here so they
 * can be read as text; everything it loads comes from the dashboard itself.
 */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>boulder</title>
<link rel="stylesheet" href="/assets/app.css">
<link rel="preload" href="/api/view" as="fetch" crossorigin="use-credentials">
<link rel="modulepreload" href="/assets/ui/client/render.js">
<link rel="modulepreload" href="/assets/present/format-time.js">
<script type="module" src="/assets/ui/client/app.js"></script>
</head>
<body>
<a class="skip" href="#worktrees">Skip to the worktrees</a>
<a class="skip" href="#timeline">Skip to the timeline</a>
<header class="top">
  <h1>boulder <span class="dim">dashboard</span></h1>
  <p id="summary" class="summary" aria-live="polite">Loading…</p>
  <p id="connection" class="connection" role="status" data-state="connecting"><span class="dot" aria-hidden="true"></span><span class="words">connecting…</span></p>
  <button id="theme" type="button" class="quiet" title="Switch between light, dark and the system's theme (t)">Theme: system</button>
</header>
<p id="notice" class="notice" role="status" aria-live="polite" hidden></p>
<div id="index-problem" class="problem-banner" role="alert" hidden></div>
<main class="layout">
  <section id="worktrees" class="worktrees" aria-label="Worktrees" tabindex="-1">
    <noscript><p class="problem">The dashboard needs JavaScript; \`boulder status --all\` shows the same in a terminal.</p></noscript>
  </section>
  <section id="timeline" class="timeline" aria-labelledby="timeline-title" tabindex="-1">
    <h2 id="timeline-title">Decisions, newest first</h2>
    <form id="filters" class="filters" role="search" aria-label="Filter the decisions">
      <label>Worktree <select id="filter-worktree"><option value="">all</option></select></label>
      <label>Session <select id="filter-session"><option value="">all</option></select></label>
      <label>Reason <select id="filter-reason"><option value="">all</option></select></label>
    </form>
    <ol id="timeline-list" class="timeline-list" aria-live="off"></ol>
  </section>
</main>
<footer class="foot dim">Keys: <kbd>/</kbd> filter the decisions · <kbd>t</kbd> theme · <kbd>Tab</kbd> moves between buttons; every button says what it does.</footer>
</body>
</html>
`;
