/**
 * The dashboard's building blocks, as markup data (`vnode.ts`): a worktree's
 * card, the header's counts, the "needs you" list and a timeline row. The
 * server draws the first screen with them, the page every update after, and
 * another page (the fleet's) can reuse them. Text from outside (plan titles,
 * paths, details) only ever becomes text. Every tone comes with its word;
 * every button says what it does and to what.
 */
import { formatElapsed, formatStamp, formatWhen } from "../../present/format-time.js";
import type {
	ActionRequest,
	Badge,
	GaugeView,
	ItemView,
	NeedView,
	SessionView,
	TimelineEntry,
	WorktreeView,
	WorkView,
} from "../view-types.js";
import { progressChart, tokensChart, turnsChart } from "./charts.js";
import { type HeaderCounts, STANDINGS } from "./counts.js";
import { formatCount } from "./format-count.js";
import { type Child, h, toDom, type VNode } from "./vnode.js";

export { h, type VNode } from "./vnode.js";

/**
 * Between the parts of a focus or section key: a line feed, which HTML keeps
 * as it is in an attribute (a NUL would come back from the server's first
 * screen as U+FFFD, and the page would no longer know its own keys).
 */
const SEP = "\n";

export interface RenderContext {
	/** The server's time now. */
	now: number;
	/** Keys of the `details` the user opened: they stay open across updates. */
	open: ReadonlySet<string>;
	/** Fetches a work's items when their section opens; absent on the server (the section is sent closed). */
	loadItems?: (worktree: string, work: string) => Promise<ItemView[]>;
}

export function badge(value: Badge, label?: string): VNode {
	return h("span", { class: `badge tone-${value.tone}`, title: label ?? null }, value.text);
}

function actionButton(text: string, label: string, request: ActionRequest, options: { danger?: boolean } = {}): VNode {
	return h(
		"button",
		{
			type: "button",
			class: options.danger ? "danger" : null,
			"aria-label": label,
			"data-action": JSON.stringify(request),
			"data-focus-key": focusKey(request),
			"data-confirm": options.danger ? "true" : null,
		},
		text,
	);
}

/** A button that copies `text` (a path or a command) to the clipboard; nothing is served or opened. */
export function copyButton(text: string, what: string): VNode {
	return h(
		"button",
		{
			type: "button",
			class: "copy quiet",
			"data-copy": text,
			"aria-label": `Copy ${what}`,
			"data-focus-key": `copy${SEP}${what}`,
		},
		"Copy",
	);
}

/**
 * A path that fits any width: the start gives way (cut with an ellipsis) and
 * the file or folder name stays; the whole path shows on hover and on focus,
 * and a press copies it.
 */
export function middlePath(path: string, what: string): VNode {
	const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
	const tail = cut > 0 && path.length - cut <= 40 ? path.slice(cut) : path.slice(-Math.min(path.length, 24));
	const head = path.slice(0, path.length - tail.length);
	return h(
		"button",
		{
			type: "button",
			class: "path mono",
			title: path,
			"data-copy": path,
			"aria-label": `${what} ${path} (press to copy)`,
		},
		h("span", { class: "head", "aria-hidden": "true" }, head),
		h("span", { class: "tail", "aria-hidden": "true" }, tail),
	);
}

/**
 * What a button acts on, not what it does: "Stop" turns into "Turn on" when
 * pressed, and the keyboard's focus stays on it across the redraw.
 */
function focusKey(request: ActionRequest): string {
	if (request.work) return `work${SEP}${request.work}${SEP}${request.action === "abandon" ? "abandon" : "status"}`;
	if (request.session) return `session${SEP}${request.session.harness}${SEP}${request.session.sessionId}`;
	return "worktree";
}

/** The header's counts: worktrees, then every session in exactly one state. */
export function renderCounts(counts: HeaderCounts): VNode {
	const item = (key: string, value: number, words: string, tone: string) =>
		h(
			"li",
			{ "data-count": key, class: value === 0 ? "zero" : `tone-${tone}` },
			h("strong", {}, String(value)),
			` ${words}`,
		);
	return h(
		"ul",
		{ class: "counts", "aria-label": "At a glance" },
		item("worktrees", counts.worktrees, counts.worktrees === 1 ? "worktree" : "worktrees", "idle"),
		item("with-problem", counts.withProblem, "with a problem", "problem"),
		item("need-you", counts.needYou, "need you", "skip"),
		item("stopped", counts.stopped, "stopped", "stop"),
		...(counts.vanished > 0 ? [item("vanished", counts.vanished, "vanished", "idle")] : []),
		h("li", { class: "sep", "aria-hidden": "true" }, "|"),
		item("sessions", counts.sessions, counts.sessions === 1 ? "session:" : "sessions:", "idle"),
		...STANDINGS.map((entry) =>
			item(entry.standing, counts.standing[entry.standing], entry.words, STANDING_TONE[entry.standing]),
		),
	);
}

const STANDING_TONE: Record<SessionView["standing"], string> = {
	rolling: "go",
	waiting: "skip",
	"verify-failed": "problem",
	held: "stop",
	problem: "problem",
	off: "stop",
	done: "done",
	idle: "idle",
};

/** Everything that waits for a person, across the worktrees, each with the one thing that resolves it. */
export function renderNeeds(worktrees: readonly WorktreeView[]): VNode {
	const rows = worktrees.flatMap((worktree) => worktree.needs.map((need) => needRow(need, worktree)));
	return h(
		"section",
		{ id: "needs", class: "needs", "aria-labelledby": "needs-title", "data-count": rows.length },
		h("h2", { id: "needs-title" }, rows.length > 0 ? `Needs you (${rows.length})` : "Nothing needs you"),
		rows.length > 0 ? h("ul", { class: "needs-list" }, ...rows) : null,
	);
}

function needRow(need: NeedView, worktree: WorktreeView): VNode {
	return h(
		"li",
		{ "data-root": worktree.root },
		h("a", { href: `#card-${cardId(worktree.root)}`, class: "needs-where" }, worktree.name),
		" ",
		h("span", {}, need.why),
		h(
			"div",
			{ class: "fix" },
			h("span", { class: "dim" }, `${need.fix}${need.command ? ":" : "."}`),
			need.command ? h("code", {}, need.command) : null,
			need.command
				? copyButton(`cd ${shellQuote(worktree.root)} && ${need.command}`, `the command for ${worktree.name}`)
				: null,
		),
	);
}

function shellQuote(text: string): string {
	return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/** A stable id for a card's anchor, from its path. */
export function cardId(root: string): string {
	let hash = 0;
	for (let index = 0; index < root.length; index++) hash = (hash * 31 + root.charCodeAt(index)) >>> 0;
	return hash.toString(36);
}

export function renderWorktree(worktree: WorktreeView, context: RenderContext): VNode {
	const children: Child[] = [];
	const actions = h("span", { class: "actions" });
	if (!worktree.vanished) {
		actions.children.push(
			worktree.stopped
				? actionButton("Turn on", `Turn on continuation in ${worktree.name}`, { action: "go", worktree: worktree.root })
				: actionButton("Stop all", `Stop all continuation in ${worktree.name}`, {
						action: "stop",
						worktree: worktree.root,
					}),
		);
	}
	children.push(
		h(
			"div",
			{ class: "card-head" },
			h("h2", {}, worktree.name),
			badge(worktree.badge, `worktree: ${worktree.badge.text}`),
			actions,
			middlePath(worktree.root, "worktree"),
		),
	);
	const card = (...body: Child[]) =>
		h(
			"article",
			{
				class: "card",
				id: `card-${cardId(worktree.root)}`,
				"data-root": worktree.root,
				"data-vanished": worktree.vanished ? "true" : "false",
				"data-needs": worktree.needs.length > 0 ? "true" : "false",
				"aria-label": `Worktree ${worktree.name}`,
			},
			...children,
			...body,
		);
	if (worktree.vanished) {
		return card(
			h(
				"p",
				{ class: "dim" },
				"This worktree's folder no longer exists. boulder keeps it in its index until it is seen again; nothing runs here.",
			),
		);
	}
	if (worktree.stopped) {
		children.push(
			h(
				"p",
				{ class: "stopped-line" },
				`Continuation is stopped here (by ${worktree.stopped.by}, ${formatWhen(worktree.stopped.at, context.now)}): no session is nudged until it is turned on.`,
			),
		);
	}
	for (const problem of worktree.problems) children.push(h("p", { class: "problem", role: "note" }, problem));
	children.push(h("h3", { class: "section-title" }, `Works (${worktree.works.length})`));
	if (worktree.works.length === 0)
		children.push(h("p", { class: "empty" }, "No works; `boulder start PLAN.md` starts one."));
	const live = worktree.works.filter((work) => work.status === "active" || work.status === "paused");
	const finished = worktree.works.filter((work) => !(work.status === "active" || work.status === "paused"));
	for (const work of live) children.push(renderWork(work, worktree, context));
	if (finished.length > 0) {
		children.push(
			lazyDetails(`finished${SEP}${worktree.root}`, `${finished.length} finished work(s)`, context, () =>
				finished.map((work) => renderWork(work, worktree, context)),
			),
		);
	}
	children.push(h("h3", { class: "section-title" }, `Sessions (${worktree.sessions.length})`));
	if (worktree.sessions.length === 0) {
		children.push(
			h("p", { class: "empty" }, "No sessions yet: they appear when a harness with boulder installed goes idle here."),
		);
	}
	const recent = worktree.sessions.filter(
		(session, index) => index < 5 || context.now - session.lastActive < DAY || session.need !== null,
	);
	const older = worktree.sessions.filter((session) => !recent.includes(session));
	for (const session of recent) children.push(renderSession(session, worktree, context));
	if (older.length > 0) {
		children.push(
			lazyDetails(`older${SEP}${worktree.root}`, `${older.length} older session(s)`, context, () =>
				older.map((session) => renderSession(session, worktree, context)),
			),
		);
	}
	return card();
}

const DAY = 24 * 60 * 60 * 1000;

/** A `details` whose content is drawn when it is first opened: a big fleet draws its summaries only. */
function lazyDetails(key: string, summary: string, context: RenderContext, content: () => Child[]): VNode {
	const details = h(
		"details",
		{ "data-key": key, class: "older", open: context.open.has(key) },
		h("summary", {}, summary),
	);
	details.lazy = content;
	return details;
}

const STATUS_TONE: Record<WorkView["status"], Badge["tone"]> = {
	active: "go",
	paused: "skip",
	completed: "done",
	abandoned: "idle",
};

/** Lines of a failing check shown at once; the rest open on request. */
const OUTPUT_LINES = 12;

function renderWork(work: WorkView, worktree: WorktreeView, context: RenderContext): VNode {
	const actions = h("span", { class: "actions" });
	const target = { worktree: worktree.root, work: work.id };
	if (work.status === "active" && work.active) {
		actions.children.push(actionButton("Pause", `Pause ${work.name}`, { action: "pause", ...target }));
	} else if (work.status === "active" || work.status === "paused") {
		actions.children.push(actionButton("Resume", `Resume ${work.name}`, { action: "resume", ...target }));
	}
	if (work.status === "active" || work.status === "paused") {
		actions.children.push(
			actionButton("Abandon", `Abandon ${work.name}`, { action: "abandon", ...target }, { danger: true }),
		);
	}
	const statusText = work.active && work.status === "active" ? "active (the one rolled)" : work.status;
	const facts = h("dl", { class: "kv" });
	const fact = (name: string, ...value: Child[]) =>
		facts.children.push(h("dt", {}, name), h("dd", {}, ...value.filter((v): v is VNode | string => !!v)));
	fact("plan", middlePath(work.planFile, `plan of ${work.name}`));
	if (work.next) fact("next", work.next);
	if (work.sessions.length > 0) fact("sessions", work.sessions.join(", "));
	if (work.verify.length > 0) fact("verify", h("code", {}, work.verify.join(" && ")));
	const v = work.lastVerification;
	if (v) {
		fact(
			"last check",
			badge({ text: v.passed ? "passed" : "failed", tone: v.passed ? "done" : "problem" }),
			` ${formatWhen(v.at, context.now)}`,
			v.passed ? "" : ` \`${v.command ?? "?"}\` exited ${v.exitCode ?? "without an exit code (timed out)"}`,
		);
	}
	const body: Child[] = [
		h(
			"div",
			{ class: "row" },
			h("span", { class: "name" }, work.name),
			badge({ text: statusText, tone: STATUS_TONE[work.status] }, `work: ${statusText}`),
			progressBar(work),
			h("span", { class: "progress-text" }, work.progressText),
			h(
				"span",
				{ class: "dim" },
				"elapsed ",
				h(
					"span",
					work.elapsedMs === null ? { "data-since": String(work.startedAt) } : {},
					formatElapsed(work.elapsedMs ?? context.now - work.startedAt),
				),
			),
			actions,
		),
		progressChart(work.name, work.history),
		facts,
	];
	if (work.planProblem) body.push(h("p", { class: "problem", role: "note" }, work.planProblem));
	if (v && !v.passed && v.output) body.push(...verifyOutput(v.output, `${worktree.root}${SEP}${work.id}`, context));
	if (work.itemCount > 0) {
		body.push(
			lazyDetails(`items${SEP}${worktree.root}${SEP}${work.id}`, `Items (${work.itemCount})`, context, () => {
				const list = h("p", { class: "dim" }, "Loading the items…");
				const load = context.loadItems;
				list.mount = (element) => {
					if (!load) return;
					void load(worktree.root, work.id).then(
						(items) => element.replaceWith(toDom(renderItems(items, work.next))),
						(error: unknown) => {
							element.className = "problem";
							element.textContent = `The items could not be loaded: ${error instanceof Error ? error.message : String(error)}`;
						},
					);
				};
				return [list];
			}),
		);
	}
	return h("div", { class: "work", "data-work": work.id }, ...body);
}

/** A failing check's output: its last lines at once, the whole of it on request. */
function verifyOutput(output: string, key: string, context: RenderContext): Child[] {
	const lines = output.replace(/\s+$/, "").split("\n");
	if (lines.length <= OUTPUT_LINES)
		return [h("pre", { class: "output mono", tabindex: 0, "aria-label": "the check's output" }, lines.join("\n"))];
	return [
		h(
			"pre",
			{ class: "output mono", tabindex: 0, "aria-label": "the check's last lines" },
			`…\n${lines.slice(-OUTPUT_LINES).join("\n")}`,
		),
		lazyDetails(`output${SEP}${key}`, `The whole output (${lines.length} lines)`, context, () => [
			h("pre", { class: "output mono full", tabindex: 0, "aria-label": "the check's whole output" }, lines.join("\n")),
		]),
	];
}

/** A bar drawn as SVG: its widths are attributes, allowed by the page's strict style policy even without a script. */
function bar(fraction: number, extra: { fraction: number; className: string } | null, className: string): VNode {
	const pct = (value: number) => `${Math.round(Math.max(0, Math.min(1, value)) * 1000) / 10}%`;
	return h(
		"svg",
		{ class: `bar-fill ${className}`, "aria-hidden": "true", focusable: "false" },
		h("rect", { class: "track", width: "100%", height: "100%", rx: 4 }),
		h("rect", { class: "done", width: pct(fraction), height: "100%", rx: 4 }),
		extra ? h("rect", { class: extra.className, x: pct(fraction), width: pct(extra.fraction), height: "100%" }) : null,
	);
}

function progressBar(work: WorkView): VNode {
	const progress = work.progress;
	const total = progress?.total ?? 0;
	return h(
		"span",
		{
			class: "bar",
			role: "progressbar",
			"aria-label": `${work.name}: ${work.progressText}`,
			"aria-valuemin": "0",
			"aria-valuemax": String(total),
			"aria-valuenow": String(progress?.done ?? 0),
			"aria-valuetext": work.progressText,
		},
		progress && total > 0
			? bar(
					(progress.done + progress.cancelled) / total,
					{ fraction: progress.blocked / total, className: "blocked" },
					"",
				)
			: null,
	);
}

const ITEM_WORDS: Record<ItemView["status"], string> = {
	pending: "☐ open",
	in_progress: "◐ in progress",
	completed: "☑ done",
	blocked: "⊘ blocked",
	cancelled: "✕ cancelled",
};

export function renderItems(items: readonly ItemView[], next: string | null): VNode {
	let nextMarked = false;
	const rows = items.map((item) => {
		const isNext =
			!nextMarked &&
			next !== null &&
			item.title === next &&
			(item.status === "pending" || item.status === "in_progress");
		if (isNext) nextMarked = true;
		return h(
			"li",
			{ class: isNext ? "next" : null },
			h("span", { class: `status st-${item.status}` }, ITEM_WORDS[item.status]),
			h("span", { class: `st-${item.status}` }, item.title),
			isNext ? h("span", { class: "dim" }, "  ← next") : null,
			item.criteria.length > 0
				? h(
						"ul",
						{ class: "criteria", "aria-label": "acceptance criteria" },
						...item.criteria.map((criterion) => h("li", {}, `${criterion.checked ? "☑" : "☐"} ${criterion.text}`)),
					)
				: null,
		);
	});
	return h("ol", { class: "items" }, ...rows);
}

function renderSession(session: SessionView, worktree: WorktreeView, context: RenderContext): VNode {
	const actions = h("span", { class: "actions" });
	if (session.harness && session.sessionId) {
		const target = { worktree: worktree.root, session: { harness: session.harness, sessionId: session.sessionId } };
		actions.children.push(
			session.stoppedBy
				? actionButton("Turn on", `Turn on continuation for session ${session.label}`, { action: "go", ...target })
				: actionButton("Stop", `Stop continuation for session ${session.label}`, { action: "stop", ...target }),
		);
	}
	const rolls = session.workName
		? `rolls ${session.workName}`
		: session.list
			? `its own todo list (${session.list.items.length} item(s))`
			: "no plan, no todo list yet";
	const body: Child[] = [
		h(
			"div",
			{ class: "row" },
			h("span", { class: "name mono" }, session.label),
			badge(session.badge, `session: ${session.badge.text}`),
			h("span", { class: "dim" }, rolls),
			h("span", { class: "grow" }),
			actions,
		),
	];
	if (session.problem) body.push(h("p", { class: "problem", role: "note" }, session.problem));
	if (session.need && session.standing !== "problem") {
		body.push(
			h(
				"p",
				{ class: "need" },
				badge(session.badge),
				` ${session.need.why}. ${session.need.fix}`,
				session.need.command ? h("code", {}, session.need.command) : null,
			),
		);
	}
	if (session.list) {
		const { list } = session;
		body.push(
			h(
				"p",
				{ class: "row" },
				h("span", {}, list.progressText),
				list.next ? h("span", { class: "dim" }, `next: ${list.next}`) : null,
			),
		);
		body.push(renderItems(list.items, list.next));
	}
	if (session.transcriptPath) {
		// A path to copy, never a link: the dashboard serves no file of a session.
		body.push(
			h(
				"p",
				{ class: "row transcript" },
				h("span", { class: "dim" }, "transcript"),
				middlePath(session.transcriptPath, `transcript of ${session.label}`),
			),
		);
	}
	if (session.stoppedBy) body.push(h("p", { class: "stopped-line" }, `Stopped by ${session.stoppedBy}.`));
	if (session.gauges.length > 0) {
		const gauges = h("div", { class: "gauges" }, ...session.gauges.map(gauge));
		if (session.stagnation) {
			gauges.children.push(
				gauge({
					label: "no progress in a row",
					used: session.stagnation.count,
					limit: session.stagnation.limit,
					usedText: String(session.stagnation.count),
					limitText: String(session.stagnation.limit),
				}),
			);
		}
		body.push(gauges);
	} else {
		body.push(h("p", { class: "dim" }, "No automatic continuation in this episode yet: no budget spent."));
	}
	const pictures = [
		turnsChart(`Session ${session.label}`, session.turns),
		tokensChart(`Session ${session.label}`, session.tokens, formatCount),
	];
	if (pictures.some(Boolean)) body.push(h("div", { class: "pictures" }, ...pictures));
	if (session.last) {
		body.push(
			h(
				"p",
				{ class: "last" },
				h("span", { class: "dim" }, `last (${formatWhen(session.last.at, context.now)}) `),
				badge({ text: session.last.headline, tone: session.last.tone }),
				` ${session.last.text}`,
			),
		);
	}
	return h("div", { class: "session", "data-scope": session.scope, "data-standing": session.standing }, ...body);
}

function gauge(value: GaugeView): VNode {
	const ratio = value.limit > 0 ? Math.min(1, value.used / value.limit) : 0;
	const tone = ratio >= 1 ? "tone-stop" : ratio >= 0.8 ? "tone-skip" : "";
	return h(
		"div",
		{ class: "gauge" },
		h(
			"div",
			{ class: "gauge-label" },
			h("span", {}, value.label),
			h("span", {}, `${value.usedText} / ${value.limitText}`),
		),
		h(
			"span",
			{
				class: `bar ${tone}`,
				role: "meter",
				"aria-label": value.label,
				"aria-valuemin": "0",
				"aria-valuemax": String(value.limit),
				"aria-valuenow": String(value.used),
				"aria-valuetext": `${value.usedText} of ${value.limitText}`,
			},
			bar(ratio, null, ""),
		),
	);
}

export function renderTimelineRow(entry: TimelineEntry, fresh: boolean): VNode {
	return h(
		"li",
		{ class: fresh ? "fresh" : null, "data-reason": entry.reason },
		h(
			"div",
			{ class: "meta" },
			h("time", { datetime: new Date(entry.at).toISOString() }, formatStamp(entry.at)),
			h("span", {}, entry.worktreeName),
			entry.sessionLabel ? h("span", { class: "mono" }, entry.sessionLabel) : null,
			h("span", { class: "mono" }, entry.reason),
		),
		h("div", {}, badge({ text: entry.headline, tone: entry.tone }), ` ${entry.text}`),
	);
}
