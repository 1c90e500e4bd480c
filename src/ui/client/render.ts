/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="dom.asynciterable" />
/**
 * Draws the dashboard's parts as DOM elements from the server's view. Text
 * from outside (plan titles, paths, details) only ever becomes text nodes,
 * never markup. Every tone comes with its word; every button says what it does
 * and to what.
 */
import { formatElapsed, formatStamp, formatWhen } from "../../present/format-time.js";
import type {
	ActionRequest,
	Badge,
	GaugeView,
	ItemView,
	SessionView,
	TimelineEntry,
	WorktreeView,
	WorkView,
} from "../view-types.js";

type Child = Node | string | null | false | undefined;

/** An element with attributes (`data-*`, `aria-*` and the rest) and children. */
export function h(
	tag: string,
	attributes: Record<string, string | boolean | null | undefined> = {},
	...children: Child[]
): HTMLElement {
	const element = document.createElement(tag);
	for (const [name, value] of Object.entries(attributes)) {
		if (value === null || value === undefined || value === false) continue;
		element.setAttribute(name, value === true ? "" : value);
	}
	for (const child of children) {
		if (child === null || child === undefined || child === false) continue;
		element.append(typeof child === "string" ? document.createTextNode(child) : child);
	}
	return element;
}

export interface RenderContext {
	/** The server's time now. */
	now: number;
	/** Keys of the `details` the user opened: they stay open across updates. */
	open: ReadonlySet<string>;
}

export function badge(value: Badge, label?: string): HTMLElement {
	return h("span", { class: `badge tone-${value.tone}`, title: label ?? null }, value.text);
}

function actionButton(
	text: string,
	label: string,
	request: ActionRequest,
	options: { danger?: boolean } = {},
): HTMLElement {
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

/**
 * What a button acts on, not what it does: "Stop" turns into "Turn on" when
 * pressed, and the keyboard's focus stays on it across the redraw.
 */
function focusKey(request: ActionRequest): string {
	if (request.work) return `work\u0000${request.work}\u0000${request.action === "abandon" ? "abandon" : "status"}`;
	if (request.session) return `session\u0000${request.session.harness}\u0000${request.session.sessionId}`;
	return "worktree";
}

export function renderWorktree(worktree: WorktreeView, context: RenderContext): HTMLElement {
	const card = h("article", {
		class: "card",
		"data-root": worktree.root,
		"data-vanished": worktree.vanished ? "true" : "false",
		"aria-label": `Worktree ${worktree.name}`,
	});
	const actions = h("span", { class: "actions" });
	if (!worktree.vanished) {
		actions.append(
			worktree.stopped
				? actionButton("Turn on", `Turn continuation on in ${worktree.name}`, { action: "go", worktree: worktree.root })
				: actionButton("Stop all", `Stop continuation in ${worktree.name}`, {
						action: "stop",
						worktree: worktree.root,
					}),
		);
	}
	card.append(
		h(
			"div",
			{ class: "card-head" },
			h("h2", {}, worktree.name),
			badge(worktree.badge, `worktree: ${worktree.badge.text}`),
			h("span", { class: "path dim mono" }, worktree.root),
			actions,
		),
	);
	if (worktree.vanished) {
		card.append(
			h(
				"p",
				{ class: "dim" },
				"This worktree's folder no longer exists. boulder keeps it in its index until it is seen again; nothing runs here.",
			),
		);
		return card;
	}
	if (worktree.stopped) {
		card.append(
			h(
				"p",
				{ class: "stopped-line" },
				`Continuation is stopped here (by ${worktree.stopped.by}, ${formatWhen(worktree.stopped.at, context.now)}): no session is nudged until it is turned on.`,
			),
		);
	}
	for (const problem of worktree.problems) card.append(h("p", { class: "problem", role: "note" }, problem));
	card.append(h("h3", { class: "section-title" }, `Works (${worktree.works.length})`));
	if (worktree.works.length === 0)
		card.append(h("p", { class: "empty" }, "No works; `boulder start PLAN.md` starts one."));
	const live = worktree.works.filter((work) => work.status === "active" || work.status === "paused");
	const finished = worktree.works.filter((work) => !(work.status === "active" || work.status === "paused"));
	for (const work of live) card.append(renderWork(work, worktree, context));
	if (finished.length > 0) {
		const key = `finished\u0000${worktree.root}`;
		card.append(
			lazyDetails(key, `${finished.length} finished work(s)`, context, () =>
				finished.map((work) => renderWork(work, worktree, context)),
			),
		);
	}
	card.append(h("h3", { class: "section-title" }, `Sessions (${worktree.sessions.length})`));
	if (worktree.sessions.length === 0) {
		card.append(
			h("p", { class: "empty" }, "No sessions yet: they appear when a harness with boulder installed goes idle here."),
		);
	}
	const recent = worktree.sessions.filter((session, index) => index < 5 || context.now - session.lastActive < DAY);
	const older = worktree.sessions.slice(recent.length);
	for (const session of recent) card.append(renderSession(session, worktree, context));
	if (older.length > 0) {
		card.append(
			lazyDetails(`older\u0000${worktree.root}`, `${older.length} older session(s)`, context, () =>
				older.map((session) => renderSession(session, worktree, context)),
			),
		);
	}
	return card;
}

const DAY = 24 * 60 * 60 * 1000;

/** A `details` whose content is drawn when it is first opened: a big fleet draws its summaries only. */
function lazyDetails(key: string, summary: string, context: RenderContext, content: () => Node[]): HTMLElement {
	const details = h("details", { "data-key": key, class: "older" }, h("summary", {}, summary)) as HTMLDetailsElement;
	let drawn = false;
	const draw = () => {
		if (drawn) return;
		drawn = true;
		details.append(...content());
	};
	if (context.open.has(key)) {
		details.open = true;
		draw();
	}
	details.addEventListener("toggle", () => {
		if (details.open) draw();
	});
	return details;
}

const STATUS_TONE: Record<WorkView["status"], Badge["tone"]> = {
	active: "go",
	paused: "skip",
	completed: "done",
	abandoned: "idle",
};

function renderWork(work: WorkView, worktree: WorktreeView, context: RenderContext): HTMLElement {
	const box = h("div", { class: "work", "data-work": work.id });
	const actions = h("span", { class: "actions" });
	const target = { worktree: worktree.root, work: work.id };
	if (work.status === "active" && work.active) {
		actions.append(actionButton("Pause", `Pause ${work.name}`, { action: "pause", ...target }));
	} else if (work.status === "active" || work.status === "paused") {
		actions.append(actionButton("Resume", `Resume ${work.name}`, { action: "resume", ...target }));
	}
	if (work.status === "active" || work.status === "paused") {
		actions.append(actionButton("Abandon", `Abandon ${work.name}`, { action: "abandon", ...target }, { danger: true }));
	}
	const statusText = work.active && work.status === "active" ? "active (the one rolled)" : work.status;
	box.append(
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
	);
	const facts = h("dl", { class: "kv" });
	const fact = (name: string, ...value: Child[]) => facts.append(h("dt", {}, name), h("dd", {}, ...value));
	fact("plan", h("span", { class: "mono" }, work.planPath));
	if (work.next) fact("next", work.next);
	if (work.sessions.length > 0) fact("sessions", work.sessions.join(", "));
	if (work.verify.length > 0) fact("verify", h("span", { class: "mono" }, work.verify.join(" && ")));
	if (work.lastVerification) {
		const v = work.lastVerification;
		fact(
			"last check",
			badge({ text: v.passed ? "passed" : "failed", tone: v.passed ? "done" : "problem" }),
			` ${formatWhen(v.at, context.now)}`,
			v.passed ? "" : ` \`${v.command ?? "?"}\` exited ${v.exitCode ?? "without an exit code (timed out)"}`,
		);
	}
	box.append(facts);
	if (work.planProblem) box.append(h("p", { class: "problem", role: "note" }, work.planProblem));
	if (work.lastVerification && !work.lastVerification.passed && work.lastVerification.output) {
		box.append(h("pre", { class: "output mono" }, work.lastVerification.output));
	}
	if (work.itemCount > 0) {
		box.append(
			lazyDetails(`items\u0000${worktree.root}\u0000${work.id}`, `Items (${work.itemCount})`, context, () => {
				const list = h("p", { class: "dim" }, "Loading the items…");
				void loadItems(worktree.root, work.id).then(
					(items) => list.replaceWith(renderItems(items, work.next)),
					(error: unknown) => {
						list.className = "problem";
						list.textContent = `The items could not be loaded: ${error instanceof Error ? error.message : String(error)}`;
					},
				);
				return [list];
			}),
		);
	}
	return box;
}

function progressBar(work: WorkView): HTMLElement {
	const progress = work.progress;
	const bar = h("span", {
		class: "bar",
		role: "progressbar",
		"aria-label": `${work.name}: ${work.progressText}`,
		"aria-valuemin": "0",
		"aria-valuemax": String(progress?.total ?? 0),
		"aria-valuenow": String(progress?.done ?? 0),
		"aria-valuetext": work.progressText,
	});
	if (progress && progress.total > 0) {
		const done = h("span");
		done.style.width = `${(100 * (progress.done + progress.cancelled)) / progress.total}%`;
		const blocked = h("span", { class: "blocked" });
		blocked.style.left = done.style.width;
		blocked.style.width = `${(100 * progress.blocked) / progress.total}%`;
		bar.append(done, blocked);
	}
	return bar;
}

async function loadItems(worktree: string, work: string): Promise<ItemView[]> {
	const query = new URLSearchParams({ worktree, work });
	const response = await fetch(`/api/items?${query}`, { credentials: "same-origin" });
	if (!response.ok) throw new Error(`the server answered ${response.status}`);
	return (await response.json()) as ItemView[];
}

const ITEM_WORDS: Record<ItemView["status"], string> = {
	pending: "☐ open",
	in_progress: "◐ in progress",
	completed: "☑ done",
	blocked: "⊘ blocked",
	cancelled: "✕ cancelled",
};

function renderItems(items: readonly ItemView[], next: string | null): HTMLElement {
	const list = h("ol", { class: "items" });
	let nextMarked = false;
	for (const item of items) {
		const isNext =
			!nextMarked &&
			next !== null &&
			item.title === next &&
			(item.status === "pending" || item.status === "in_progress");
		if (isNext) nextMarked = true;
		const row = h(
			"li",
			{ class: isNext ? "next" : null },
			h("span", { class: `status st-${item.status}` }, ITEM_WORDS[item.status]),
			h("span", { class: `st-${item.status}` }, item.title),
			isNext ? h("span", { class: "dim" }, "  ← next") : null,
		);
		if (item.criteria.length > 0) {
			row.append(
				h(
					"ul",
					{ class: "criteria", "aria-label": "acceptance criteria" },
					...item.criteria.map((criterion) => h("li", {}, `${criterion.checked ? "☑" : "☐"} ${criterion.text}`)),
				),
			);
		}
		list.append(row);
	}
	return list;
}

function renderSession(session: SessionView, worktree: WorktreeView, context: RenderContext): HTMLElement {
	const box = h("div", { class: "session", "data-scope": session.scope });
	const actions = h("span", { class: "actions" });
	if (session.harness && session.sessionId) {
		const target = { worktree: worktree.root, session: { harness: session.harness, sessionId: session.sessionId } };
		actions.append(
			session.stoppedBy
				? actionButton("Turn on", `Turn continuation on for session ${session.label}`, { action: "go", ...target })
				: actionButton("Stop", `Stop continuation for session ${session.label}`, { action: "stop", ...target }),
		);
	}
	box.append(
		h(
			"div",
			{ class: "row" },
			h("span", { class: "name mono" }, session.label),
			badge(session.badge, `session: ${session.badge.text}`),
			session.workName
				? h("span", { class: "dim" }, `rolls ${session.workName}`)
				: h("span", { class: "dim" }, "own list"),
			h("span", { class: "grow" }),
			actions,
		),
	);
	if (session.problem) box.append(h("p", { class: "problem", role: "note" }, session.problem));
	if (session.list) {
		const { list } = session;
		box.append(h("p", { class: "row" }, h("span", {}, list.progressText)));
		if (list.next) box.append(h("p", { class: "row" }, h("span", { class: "dim" }, "next "), list.next));
		box.append(
			lazyDetails(`list\u0000${worktree.root}\u0000${session.scope}`, `Items (${list.items.length})`, context, () => [
				renderItems(list.items, list.next),
			]),
		);
	}
	if (session.stoppedBy) box.append(h("p", { class: "stopped-line" }, `Stopped by ${session.stoppedBy}.`));
	if (session.waiting)
		box.append(h("p", { class: "row" }, badge({ text: "waits for you", tone: "skip" }), session.waiting));
	if (session.gauges.length > 0) {
		const gauges = h("div", { class: "gauges" }, ...session.gauges.map(gauge));
		if (session.stagnation) {
			gauges.append(
				gauge({
					label: "no progress in a row",
					used: session.stagnation.count,
					limit: session.stagnation.limit,
					usedText: String(session.stagnation.count),
					limitText: String(session.stagnation.limit),
				}),
			);
		}
		box.append(gauges);
	} else {
		box.append(h("p", { class: "dim" }, "No automatic continuation in this episode yet: no budget spent."));
	}
	if (session.last) {
		box.append(
			h(
				"p",
				{ class: "last" },
				h("span", { class: "dim" }, `last (${formatWhen(session.last.at, context.now)}) `),
				badge({ text: session.last.headline, tone: session.last.tone }),
				` ${session.last.text}`,
			),
		);
	}
	return box;
}

function gauge(value: GaugeView): HTMLElement {
	const ratio = value.limit > 0 ? Math.min(1, value.used / value.limit) : 0;
	const tone = ratio >= 1 ? "tone-stop" : ratio >= 0.8 ? "tone-skip" : "";
	const bar = h("span", {
		class: `bar ${tone}`,
		role: "meter",
		"aria-label": value.label,
		"aria-valuemin": "0",
		"aria-valuemax": String(value.limit),
		"aria-valuenow": String(value.used),
		"aria-valuetext": `${value.usedText} of ${value.limitText}`,
	});
	const fill = h("span");
	fill.style.width = `${100 * ratio}%`;
	bar.append(fill);
	return h(
		"div",
		{ class: "gauge" },
		h(
			"div",
			{ class: "gauge-label" },
			h("span", {}, value.label),
			h("span", {}, `${value.usedText} / ${value.limitText}`),
		),
		bar,
	);
}

export function renderTimelineRow(entry: TimelineEntry, fresh: boolean): HTMLElement {
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
