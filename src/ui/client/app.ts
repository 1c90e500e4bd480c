/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="dom.asynciterable" />
/**
 * The dashboard page's script: follows the server's live stream, redraws only
 * the worktree that changed, keeps the timeline's filters and the opened
 * sections across updates, runs the elapsed clocks, and sends the buttons'
 * actions back (same origin, JSON). Keys: `/` goes to the filters, `t`
 * switches the theme.
 */
import { formatElapsed } from "../../present/format-time.js";
import type { ActionAnswer, DashboardView, ItemView, LiveMessage, TimelineEntry, WorktreeView } from "../view-types.js";
import { cardOrder, headerCounts, needsPerson } from "./counts.js";
import {
	h,
	type RenderContext,
	renderCounts,
	renderNeeds,
	renderTimelineRow,
	renderWorktree as renderWorktreeNode,
} from "./render.js";
import { adopt, toDom, type VNode } from "./vnode.js";

/** Rows the timeline draws at most; the filters reach further back, through every line the page holds. */
const TIMELINE_ROWS = 200;
const THEMES = ["system", "light", "dark"] as const;

const worktrees = new Map<string, WorktreeView>();
let order: string[] = [];
let timeline: TimelineEntry[] = [];
/** Server time minus this browser's time. */
let skew = 0;
const opened = new Set<string>();

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

function now(): number {
	return Date.now() + skew;
}

function context(): RenderContext {
	return { now: now(), open: opened, loadItems };
}

function cardOf(root: string): HTMLElement | null {
	return document.querySelector<HTMLElement>(`#worktrees > article[data-root="${CSS.escape(root)}"]`);
}

/**
 * Whether what is shown is drawn as `fresh` would be: the same elements,
 * attributes and text, the running clocks aside (they tick on their own).
 */
function drawnAlike(shown: Element, fresh: Element): boolean {
	if (shown.isEqualNode(fresh)) return true;
	const [a, b] = [shown.cloneNode(true) as Element, fresh.cloneNode(true) as Element];
	for (const clone of [a, b]) {
		for (const clock of clone.querySelectorAll("[data-since]")) clock.textContent = "";
		clone.normalize();
	}
	return a.isEqualNode(b);
}

/**
 * The card for this view: the one shown when it is drawn alike (it keeps
 * its identity, so focus, scroll and a selection stay; a card the server drew
 * only gains its listeners), else a fresh one.
 */
function cardFor(worktree: WorktreeView): HTMLElement {
	const node = renderWorktreeNode(worktree, context());
	const fresh = toDom(node) as HTMLElement;
	const shown = cardOf(worktree.root);
	if (shown && drawnAlike(shown, fresh)) {
		adopt(node, shown);
		return shown;
	}
	return fresh;
}

/** Puts `fresh` where `old` is, moving the focus to its counterpart when it was inside. */
function swap(old: Element, fresh: HTMLElement): void {
	if (old === fresh) return;
	const focused =
		document.activeElement instanceof HTMLElement && old.contains(document.activeElement)
			? document.activeElement.dataset.focusKey
			: undefined;
	old.replaceWith(fresh);
	if (focused) fresh.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focused)}"]`)?.focus();
}

/** Replaces the slot's content only when it is drawn differently: an unchanged part keeps its identity and focus. */
function redraw(slot: HTMLElement, node: VNode): void {
	const fresh = toDom(node);
	const shown = slot.firstElementChild;
	if (slot.children.length === 1 && shown && drawnAlike(shown, fresh)) {
		adopt(node, shown);
		return;
	}
	if (shown && slot.children.length === 1) swap(shown, fresh as HTMLElement);
	else slot.replaceChildren(fresh);
}

/** The worktrees in the order the page shows them: those that need a person first, then by path. */
function shownOrder(): WorktreeView[] {
	return cardOrder(order.flatMap((root) => worktrees.get(root) ?? []));
}

function applySnapshot(view: DashboardView): void {
	mark("snapshot-received");
	skew = view.now - Date.now();
	worktrees.clear();
	for (const worktree of view.worktrees) worktrees.set(worktree.root, worktree);
	order = view.worktrees.map((worktree) => worktree.root);
	timeline = [...view.timeline];
	const problem = $("index-problem");
	problem.hidden = view.indexProblem === null;
	problem.textContent = view.indexProblem ?? "";
	const list = $("worktrees");
	const drawing = ++drawings;
	const sorted = shownOrder();
	const first = sorted.slice(0, FIRST_SCREEN);
	const later = new Set(sorted.slice(FIRST_SCREEN).map((worktree) => worktree.root));
	// What the server drew (or an earlier view) stays where it is drawn alike: the first live view never flashes.
	for (const child of [...list.childNodes]) {
		const root = child instanceof HTMLElement && child.tagName === "ARTICLE" ? child.dataset.root : undefined;
		if (root === undefined || !(worktrees.has(root) && (later.has(root) || first.some((w) => w.root === root)))) {
			child.remove();
		}
	}
	let previous: Element | null = null;
	for (const worktree of first) previous = place(cardFor(worktree), previous);
	if (first.length === 0) {
		list.append(toDom(h("p", { class: "empty" }, "No worktrees known yet: `boulder start PLAN.md` in one adds it.")));
	}
	drawTimeline([]);
	refreshFilters();
	summarise();
	mark("first-screen-drawn");
	drawRest(sorted.slice(FIRST_SCREEN), previous, drawing);
}

/** Puts the card right after `previous` (first when null), moving nothing that is already there. */
function place(card: HTMLElement, previous: Element | null): HTMLElement {
	const list = $("worktrees");
	const shown = cardOf(card.dataset.root ?? "");
	if (shown && shown !== card) swap(shown, card);
	const wanted = previous ? previous.nextElementSibling : list.firstElementChild;
	if (wanted !== card) {
		if (previous) previous.after(card);
		else list.prepend(card);
	}
	return card;
}

/** Cards drawn before the page first paints; the rest follow a few at a time, so a big fleet shows at once. */
const FIRST_SCREEN = 12;
let drawings = 0;

function drawRest(rest: readonly WorktreeView[], previous: Element | null, drawing: number): void {
	if (drawing !== drawings) return;
	if (rest.length === 0) {
		mark("dashboard-drawn");
		return;
	}
	let last = previous;
	for (const worktree of rest.slice(0, FIRST_SCREEN)) {
		const current = worktrees.get(worktree.root) ?? worktree;
		last = place(cardFor(current), last);
	}
	window.setTimeout(() => drawRest(rest.slice(FIRST_SCREEN), last, drawing), 0);
}

/** Marks a moment the bench times (the first of each name only). */
function mark(name: string): void {
	if (performance.getEntriesByName(name).length === 0) performance.mark(name);
}

function applyWorktree(worktree: WorktreeView, serverNow: number): void {
	skew = serverNow - Date.now();
	worktrees.set(worktree.root, worktree);
	if (!order.includes(worktree.root)) {
		order.push(worktree.root);
		order.sort();
	}
	const old = cardOf(worktree.root);
	const focused =
		document.activeElement instanceof HTMLElement && old?.contains(document.activeElement)
			? document.activeElement.dataset.focusKey
			: undefined;
	const card = cardFor(worktree);
	// Its place: before the next card in the shown order that is drawn; a card moves only when what it needs changed.
	const sorted = shownOrder();
	const after = sorted.slice(sorted.findIndex((entry) => entry.root === worktree.root) + 1);
	const before = after.map((entry) => cardOf(entry.root)).find((element) => element !== null && element !== old);
	if (old && (old.nextElementSibling === before || (!before && !old.nextElementSibling))) {
		if (old !== card) old.replaceWith(card);
	} else {
		if (old !== card) old?.remove();
		if (before) before.before(card);
		else $("worktrees").append(card);
	}
	if (focused && document.activeElement !== card.querySelector(`[data-focus-key="${CSS.escape(focused)}"]`))
		card.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focused)}"]`)?.focus();
	refreshFilters();
	summarise();
}

function applyTimeline(entries: TimelineEntry[], serverNow: number): void {
	skew = serverNow - Date.now();
	timeline = [...timeline, ...entries].slice(-5 * TIMELINE_ROWS);
	addToTimeline(entries);
	refreshFilters();
}

function filters(): { worktree: string; session: string; reason: string } {
	return {
		worktree: $<HTMLSelectElement>("filter-worktree").value,
		session: $<HTMLSelectElement>("filter-session").value,
		reason: $<HTMLSelectElement>("filter-reason").value,
	};
}

function matches(entry: TimelineEntry, wanted: ReturnType<typeof filters>): boolean {
	return (
		(wanted.worktree === "" || entry.worktree === wanted.worktree) &&
		(wanted.session === "" || `${entry.harness}:${entry.session}` === wanted.session) &&
		(wanted.reason === "" || entry.reason === wanted.reason)
	);
}

/** Puts new entries at the top of the timeline as drawn, marked as just arrived; the oldest rows drop off. */
function addToTimeline(entries: readonly TimelineEntry[]): void {
	const wanted = filters();
	const list = $("timeline-list");
	const shown = entries.filter((entry) => matches(entry, wanted));
	if (shown.length === 0) return;
	list.querySelector(":scope > li.empty")?.remove();
	list.prepend(...shown.reverse().map((entry) => toDom(renderTimelineRow(entry, true))));
	while (list.children.length > TIMELINE_ROWS) list.lastElementChild?.remove();
}

/** Redraws the timeline, newest first; `fresh` entries are marked as just arrived. */
function drawTimeline(fresh: readonly TimelineEntry[]): void {
	const wanted = filters();
	const shown = timeline
		.filter((entry) => matches(entry, wanted))
		.slice(-TIMELINE_ROWS)
		.reverse();
	const list = $("timeline-list");
	const isFresh = new Set(fresh);
	const rows =
		shown.length > 0
			? shown.map((entry) => toDom(renderTimelineRow(entry, isFresh.has(entry))))
			: [toDom(h("li", { class: "empty" }, "No decisions match."))];
	// The rows the server drew stay when they are the same: the list keeps its scroll.
	const same =
		list.children.length === rows.length && rows.every((row, i) => drawnAlike(list.children[i] as Element, row));
	if (!same) list.replaceChildren(...rows);
}

function refreshFilters(): void {
	setOptions(
		"filter-worktree",
		order.map((root) => [root, worktrees.get(root)?.name ?? root]),
	);
	const sessions = new Map<string, string>();
	const reasons = new Set<string>();
	for (const entry of timeline) {
		if (entry.harness && entry.session)
			sessions.set(`${entry.harness}:${entry.session}`, entry.sessionLabel ?? entry.session);
		reasons.add(entry.reason);
	}
	setOptions(
		"filter-session",
		[...sessions].sort((a, b) => a[1].localeCompare(b[1])),
	);
	setOptions(
		"filter-reason",
		[...reasons].sort().map((reason) => [reason, reason]),
	);
}

/** Keeps the chosen option, even when it is no longer offered. */
function setOptions(id: string, options: readonly (readonly [string, string])[]): void {
	const select = $<HTMLSelectElement>(id);
	const chosen = select.value;
	const known = new Set(options.map(([value]) => value));
	const all: (readonly [string, string])[] = [["", "all"], ...options];
	if (chosen && !known.has(chosen)) all.push([chosen, chosen]);
	const same =
		select.options.length === all.length && all.every(([value], index) => select.options[index]?.value === value);
	if (same) return;
	select.replaceChildren(...all.map(([value, label]) => toDom(h("option", { value }, label))));
	select.value = chosen;
}

/** The header's counts and the "needs you" list, from the same views as the cards. */
function summarise(): void {
	const views = order.flatMap((root) => worktrees.get(root) ?? []);
	redraw($("summary"), renderCounts(headerCounts(views)));
	redraw($("needs-slot"), renderNeeds(cardOrder(views)));
	for (const card of document.querySelectorAll<HTMLElement>("#worktrees > article")) {
		const view = worktrees.get(card.dataset.root ?? "");
		card.dataset.needs = view && needsPerson(view) ? "true" : "false";
	}
}

async function loadItems(worktree: string, work: string): Promise<ItemView[]> {
	const query = new URLSearchParams({ worktree, work });
	const response = await fetch(`/api/items?${query}`, { credentials: "same-origin" });
	if (!response.ok) throw new Error(`the server answered ${response.status}`);
	return (await response.json()) as ItemView[];
}

function setOnlyNeeds(on: boolean): void {
	const button = $("only-needs");
	button.setAttribute("aria-pressed", on ? "true" : "false");
	$("worktrees").classList.toggle("only-needs", on);
}

async function copy(button: HTMLButtonElement): Promise<void> {
	const text = button.dataset.copy ?? "";
	try {
		await navigator.clipboard.writeText(text);
		notify(`Copied: ${text}`, "ok");
	} catch {
		// Without clipboard access (an insecure context, a refusal) the text is shown to copy by hand.
		notify(`Copy this: ${text}`, "ok");
	}
}

function setConnection(state: "snapshot" | "connecting" | "live" | "lost" | "refused"): void {
	const element = $("connection");
	element.dataset.state = state;
	const words = element.querySelector(".words");
	if (words) {
		words.textContent = {
			snapshot: words.textContent ?? "",
			connecting: "connecting…",
			live: "live",
			lost: "connection lost, reconnecting…",
			refused: "this dashboard was stopped or restarted: open the address `boulder ui` printed",
		}[state];
	}
}

/**
 * Draws the view the page asked for while its scripts loaded (preloaded with
 * the page), then follows the stream from that view's version on; without it,
 * the stream's first message is the whole view.
 */
async function begin(): Promise<void> {
	let version: number | null = null;
	try {
		const response = await fetch("/api/view", { credentials: "include" });
		if (response.ok) {
			const view = (await response.json()) as DashboardView;
			applySnapshot(view);
			version = view.version;
		}
	} catch {
		// The stream sends the whole view when it opens.
	}
	connect(version);
}

function connect(version: number | null): void {
	const source = new EventSource(version === null ? "/api/events" : `/api/events?after=${version}`);
	source.addEventListener("open", () => setConnection("live"));
	source.addEventListener("error", () => {
		setConnection("lost");
		// A restarted dashboard has a new token: the old page can never get back in, so it stops trying and says so.
		fetch("/api/view", { method: "HEAD", credentials: "same-origin" }).then(
			(response) => {
				if (response.status === 401) {
					source.close();
					setConnection("refused");
				}
			},
			() => {},
		);
	});
	source.addEventListener("live", (event) => {
		setConnection("live");
		const message = JSON.parse((event as MessageEvent<string>).data) as LiveMessage;
		if (message.type === "snapshot") applySnapshot(message.view);
		else if (message.type === "worktree") applyWorktree(message.worktree, message.now);
		else applyTimeline(message.entries, message.now);
	});
}

let noticeTimer: number | undefined;

function notify(text: string, tone: "ok" | "problem"): void {
	const notice = $("notice");
	notice.hidden = false;
	notice.dataset.tone = tone;
	notice.textContent = text;
	window.clearTimeout(noticeTimer);
	noticeTimer = window.setTimeout(() => {
		notice.hidden = true;
	}, 8000);
}

async function act(button: HTMLButtonElement): Promise<void> {
	if (button.dataset.confirm === "true" && !button.classList.contains("confirm")) {
		// A second press confirms: nothing final happens on one stray key press.
		button.classList.add("confirm");
		const text = button.textContent;
		button.textContent = "Press again to confirm";
		window.setTimeout(() => {
			button.classList.remove("confirm");
			button.textContent = text;
		}, 5000);
		return;
	}
	button.disabled = true;
	try {
		const response = await fetch("/api/action", {
			method: "POST",
			headers: { "Content-Type": "application/json" },
			body: button.dataset.action ?? "{}",
			credentials: "same-origin",
		});
		const answer = (await response.json()) as ActionAnswer;
		notify(answer.message, answer.ok ? "ok" : "problem");
	} catch (error) {
		notify(`The action could not be sent: ${error instanceof Error ? error.message : String(error)}`, "problem");
	} finally {
		button.disabled = false;
	}
}

function tickClocks(): void {
	const at = now();
	for (const element of document.querySelectorAll<HTMLElement>("[data-since]")) {
		element.textContent = formatElapsed(at - Number(element.dataset.since));
	}
}

function setTheme(theme: (typeof THEMES)[number]): void {
	if (theme === "system") delete document.documentElement.dataset.theme;
	else document.documentElement.dataset.theme = theme;
	$("theme").textContent = `Theme: ${theme}`;
	try {
		localStorage.setItem("boulder-ui-theme", theme);
	} catch {
		// Storage may be off (private windows); the theme still applies to this page.
	}
}

function savedTheme(): (typeof THEMES)[number] {
	try {
		const saved = localStorage.getItem("boulder-ui-theme");
		return THEMES.find((theme) => theme === saved) ?? "system";
	} catch {
		return "system";
	}
}

function start(): void {
	setTheme(savedTheme());
	$("theme").addEventListener("click", () => {
		const current = savedTheme();
		setTheme(THEMES[(THEMES.indexOf(current) + 1) % THEMES.length] ?? "system");
	});
	document.addEventListener("click", (event) => {
		const target = event.target as HTMLElement;
		const button = target.closest<HTMLButtonElement>("button[data-action]");
		if (button) void act(button);
		const copying = target.closest<HTMLButtonElement>("button[data-copy]");
		if (copying) void copy(copying);
	});
	$("only-needs").addEventListener("click", () => {
		setOnlyNeeds($("only-needs").getAttribute("aria-pressed") !== "true");
	});
	document.addEventListener(
		"toggle",
		(event) => {
			const details = event.target as HTMLDetailsElement;
			const key = details.dataset?.key;
			if (!key) return;
			if (details.open) opened.add(key);
			else opened.delete(key);
		},
		true,
	);
	$("filters").addEventListener("change", () => drawTimeline([]));
	$("filters").addEventListener("submit", (event) => event.preventDefault());
	document.addEventListener("keydown", (event) => {
		const target = event.target as HTMLElement;
		if (event.ctrlKey || event.metaKey || event.altKey || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
		if (event.key === "/") {
			event.preventDefault();
			$("filter-worktree").focus();
		} else if (event.key === "t") {
			$("theme").click();
		} else if (event.key === "n") {
			$("only-needs").click();
		}
	});
	window.setInterval(tickClocks, 1000);
	void begin();
}

start();
