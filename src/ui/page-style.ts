/**
 * The dashboard's style sheet: light and dark (the system's choice unless the
 * user picks one), tones that always come with a word, visible focus, and
 * nothing loaded from elsewhere (system fonts only).
 */
export const PAGE_STYLE = `
:root {
  --bg: #f7f7f5; --panel: #ffffff; --text: #1d1f21; --dim: #5f6368; --line: #d9dadc;
  --go: #1a7f37; --go-bg: #dafbe1; --skip: #8a5a00; --skip-bg: #fff3cd; --stop: #b42318; --stop-bg: #fde7e4;
  --done: #0b62a3; --done-bg: #dbeafe; --idle: #5f6368; --idle-bg: #eceff1; --problem: #b42318; --problem-bg: #fde7e4;
  --event: #5f6368; --event-bg: #eceff1; --bar: #d0d7de; --focus: #0b62a3;
  color-scheme: light;
}
@media (prefers-color-scheme: dark) {
  :root:not([data-theme="light"]) {
    --bg: #111315; --panel: #1b1e21; --text: #e8eaed; --dim: #a0a6ad; --line: #30353a;
    --go: #4ac26b; --go-bg: #12301c; --skip: #e3b341; --skip-bg: #3a2d08; --stop: #ff7b72; --stop-bg: #3d1512;
    --done: #6cb6ff; --done-bg: #0f2a44; --idle: #a0a6ad; --idle-bg: #262a2e; --problem: #ff7b72; --problem-bg: #3d1512;
    --event: #a0a6ad; --event-bg: #262a2e; --bar: #3a4046; --focus: #6cb6ff;
    color-scheme: dark;
  }
}
:root[data-theme="dark"] {
  --bg: #111315; --panel: #1b1e21; --text: #e8eaed; --dim: #a0a6ad; --line: #30353a;
  --go: #4ac26b; --go-bg: #12301c; --skip: #e3b341; --skip-bg: #3a2d08; --stop: #ff7b72; --stop-bg: #3d1512;
  --done: #6cb6ff; --done-bg: #0f2a44; --idle: #a0a6ad; --idle-bg: #262a2e; --problem: #ff7b72; --problem-bg: #3d1512;
  --event: #a0a6ad; --event-bg: #262a2e; --bar: #3a4046; --focus: #6cb6ff;
  color-scheme: dark;
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
code, kbd, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
h1 { font-size: 18px; margin: 0; }
h2 { font-size: 15px; margin: 0 0 8px; }
h3 { font-size: 14px; margin: 0; }
.dim { color: var(--dim); }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 8px; top: 8px; z-index: 10; background: var(--panel); padding: 6px 10px; border: 2px solid var(--focus); }
:focus-visible { outline: 2px solid var(--focus); outline-offset: 2px; }
.top { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 20px; padding: 12px 20px; border-bottom: 1px solid var(--line); background: var(--panel); position: sticky; top: 0; z-index: 5; }
.summary { margin: 0; flex: 1; }
.connection { margin: 0; display: flex; align-items: center; gap: 6px; min-width: 24ch; }
.connection .dot { width: 9px; height: 9px; border-radius: 50%; background: var(--idle); }
.connection[data-state="live"] .dot { background: var(--go); }
.connection[data-state="snapshot"] .dot { background: var(--skip); }
.connection[data-state="lost"] .dot, .connection[data-state="refused"] .dot { background: var(--stop); }
.notice { margin: 8px 20px 0; padding: 8px 12px; border-radius: 6px; background: var(--done-bg); color: var(--text); }
.notice[data-tone="problem"] { background: var(--problem-bg); }
.problem-banner { margin: 8px 20px 0; padding: 8px 12px; border-radius: 6px; background: var(--problem-bg); color: var(--problem); }
.layout { display: grid; grid-template-columns: minmax(0, 3fr) minmax(320px, 2fr); gap: 16px; padding: 16px 20px; align-items: start; }
@media (max-width: 1000px) { .layout { grid-template-columns: minmax(0, 1fr); } .timeline { position: static; max-height: none; } }
.worktrees { display: flex; flex-direction: column; gap: 12px; min-width: 0; }
/* A card off screen is neither laid out nor painted until it scrolls near: a big fleet paints its first screen first. */
.card { content-visibility: auto; contain-intrinsic-size: auto 420px; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; }
.card[data-vanished="true"] { opacity: 0.75; border-style: dashed; }
.card-head { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 12px; }
.card-head .actions { margin-left: auto; }
.card-head .path { flex: 1 0 100%; }
/* A path gives way from its start; the name at its end stays; hover or focus shows it whole. */
.path { display: inline-flex; max-width: 100%; min-width: 0; padding: 0; border: 0; background: none; color: var(--dim); text-align: left; cursor: copy; border-radius: 3px; }
.path .head { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 1ch; flex: 0 1 auto; }
.path .tail { white-space: nowrap; flex: 0 0 auto; }
.path:hover, .path:focus { display: inline; color: var(--text); }
.path:hover .head, .path:focus .head, .path:hover .tail, .path:focus .tail { white-space: normal; overflow-wrap: anywhere; overflow: visible; }
.counts { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 2px 12px; }
.counts li { white-space: nowrap; background: none; }
.counts li.zero { color: var(--dim); }
.counts li.sep { color: var(--line); }
.needs { margin: 12px 20px 0; padding: 10px 14px; border: 1px solid var(--line); border-left: 4px solid var(--skip); border-radius: 8px; background: var(--panel); }
.needs[data-count="0"] { border-left-color: var(--go); }
.needs h2 { margin: 0; font-size: 14px; }
.needs-list { list-style: none; margin: 6px 0 0; padding: 0; display: grid; gap: 6px; }
.needs-list li { border-top: 1px solid var(--line); padding-top: 6px; overflow-wrap: anywhere; }
.needs-where { font-weight: 700; color: var(--text); margin-right: 4px; }
.fix { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 8px; margin-top: 2px; }
.fix code, .need code { background: var(--bg); padding: 1px 5px; border-radius: 4px; overflow-wrap: anywhere; }
.need { margin: 6px 0 0; }
button.copy { padding: 0 6px; font-size: 12px; }
.worktrees.only-needs > article[data-needs="false"] { display: none; }
.pictures { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 6px 14px; margin-top: 6px; }
.figure { margin: 0; }
.chart { display: block; width: 100%; max-width: 480px; overflow: visible; margin-top: 4px; color: var(--dim); }
.chart .axis, .chart .lane { stroke: var(--line); stroke-width: 1; }
.chart .limit { stroke: var(--stop); stroke-width: 1; stroke-dasharray: 3 2; fill: none; }
.chart .line { stroke: var(--go); stroke-width: 1.6; fill: none; }
.chart .line.tokens { stroke: var(--done); }
.chart .pt { fill: var(--go); }
.chart .pt.nudge { fill: var(--panel); stroke: var(--done); stroke-width: 1.4; }
.legend { display: flex; flex-wrap: wrap; gap: 2px 10px; font-size: 11px; }
.key-user { color: var(--text); }
.badge { display: inline-flex; align-items: center; gap: 4px; padding: 1px 8px; border-radius: 999px; font-size: 12px; font-weight: 600; border: 1px solid currentColor; white-space: nowrap; }
.badge::before { content: ""; width: 7px; height: 7px; border-radius: 50%; background: currentColor; }
.tone-go { color: var(--go); background: var(--go-bg); }
.tone-skip { color: var(--skip); background: var(--skip-bg); }
.tone-stop { color: var(--stop); background: var(--stop-bg); }
.tone-done { color: var(--done); background: var(--done-bg); }
.tone-idle, .tone-event { color: var(--idle); background: var(--idle-bg); }
.tone-problem { color: var(--problem); background: var(--problem-bg); }
.problem { color: var(--problem); background: var(--problem-bg); border-radius: 6px; padding: 6px 10px; margin: 8px 0 0; overflow-wrap: anywhere; }
.problem::before { content: "Problem: "; font-weight: 700; }
.stopped-line { color: var(--stop); margin: 8px 0 0; }
button { font: inherit; cursor: pointer; border: 1px solid var(--line); background: var(--panel); color: var(--text); border-radius: 6px; padding: 3px 10px; }
button:hover { border-color: var(--focus); }
button:disabled { cursor: progress; opacity: 0.6; }
button.danger { color: var(--stop); border-color: var(--stop); }
button.confirm { background: var(--stop); color: var(--panel); border-color: var(--stop); }
button.quiet { border-color: transparent; }
button[aria-pressed="true"] { background: var(--skip-bg); color: var(--skip); border-color: var(--skip); font-weight: 600; }
.actions { display: inline-flex; gap: 6px; flex-wrap: wrap; }
.section-title { margin: 12px 0 4px; font-size: 12px; text-transform: uppercase; letter-spacing: 0.04em; color: var(--dim); }
.work, .session { border-top: 1px solid var(--line); padding: 8px 0; }
.work:first-of-type, .session:first-of-type { border-top: 0; }
.row { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 12px; }
.row .name { font-weight: 600; overflow-wrap: anywhere; }
.transcript .path { flex: 1 1 12ch; }
.grow { flex: 1; min-width: 0; }
.bar { display: inline-block; position: relative; height: 10px; border-radius: 5px; background: var(--bar); overflow: hidden; min-width: 120px; flex: 1; max-width: 260px; }
.bar-fill { position: absolute; inset: 0; width: 100%; height: 100%; display: block; }
.bar-fill .track { fill: var(--bar); }
.bar-fill .done { fill: var(--go); }
.bar-fill .blocked { fill: var(--skip); }
.bar.tone-stop .bar-fill .done { fill: var(--stop); }
.bar.tone-skip .bar-fill .done { fill: var(--skip); }
.gauges { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 6px 14px; margin-top: 6px; }
.gauge .bar { display: block; max-width: none; min-width: 0; height: 8px; }
.gauge-label { display: flex; justify-content: space-between; font-size: 12px; }
.kv { display: grid; grid-template-columns: minmax(0, max-content) minmax(0, 1fr); gap: 2px 10px; margin: 4px 0 0; }
.kv dt { color: var(--dim); }
.kv dd { margin: 0; overflow-wrap: anywhere; min-width: 0; }
details > summary { cursor: pointer; color: var(--dim); margin-top: 4px; }
.items { list-style: none; padding: 0; margin: 6px 0 0; }
.items li { padding: 2px 0; }
.items .status { display: inline-block; min-width: 88px; font-size: 12px; font-weight: 600; }
.items .criteria { list-style: none; margin: 2px 0 4px 96px; padding: 0; color: var(--dim); font-size: 13px; }
.st-completed { color: var(--go); }
.st-pending, .st-in_progress { color: var(--text); }
.st-blocked { color: var(--skip); }
.st-cancelled { color: var(--dim); text-decoration: line-through; }
.items .next { font-weight: 700; }
pre.output { white-space: pre-wrap; max-height: 180px; overflow: auto; background: var(--bg); padding: 6px 8px; border-radius: 6px; margin: 4px 0 0; }
.timeline { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; position: sticky; top: 64px; max-height: calc(100vh - 84px); display: flex; flex-direction: column; }
.filters { display: flex; flex-wrap: wrap; gap: 8px; margin-bottom: 8px; }
.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--dim); }
select { font: inherit; color: var(--text); background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 3px 6px; max-width: 200px; }
.timeline-list { list-style: none; margin: 0; padding: 0; overflow: auto; flex: 1; }
.timeline-list li { border-top: 1px solid var(--line); padding: 6px 0; }
.timeline-list li.fresh { animation: fresh 1.5s ease-out; }
@keyframes fresh { from { background: var(--done-bg); } to { background: transparent; } }
@media (prefers-reduced-motion: reduce) { .timeline-list li.fresh { animation: none; } }
.timeline-list .meta { font-size: 12px; color: var(--dim); display: flex; flex-wrap: wrap; gap: 4px 10px; }
.empty { color: var(--dim); font-style: italic; }
.older > summary { margin-top: 8px; }
.foot { padding: 0 20px 16px; font-size: 12px; }
/* Narrow screens (a phone is 390 px): last, so it wins over the rules above. */
@media (max-width: 600px) {
  .top { padding: 10px 12px; gap: 6px 12px; }
  .layout { padding: 12px; gap: 12px; }
  .needs, .notice, .problem-banner { margin-left: 12px; margin-right: 12px; }
  .bar { min-width: 80px; }
  .items .criteria { margin-left: 24px; }
  .foot { padding: 0 12px 12px; }
}
`;
