/**
 * What the dashboard's server sends its page: plain JSON, already worded
 * (the same words as `boulder why` and `boulder status`), so the page only
 * draws. Shared by the server and the page; types only.
 */
import type { Standing } from "../core/standing.js";
import type { Tone } from "../present/why-text.js";

export type { Tone } from "../present/why-text.js";

export interface DashboardView {
	/** The server's clock when the view was made. */
	now: number;
	/** Counts the changes the server has seen: a stream opened `after` this version skips the whole view. */
	version: number;
	indexProblem: string | null;
	/** In a stable order (by path); the page puts those that need a person first. */
	worktrees: WorktreeView[];
	/** Newest last. */
	timeline: TimelineEntry[];
}

/**
 * Where a session stands, one word per card (`core/standing.ts`): every
 * session card is exactly one of these, and the header counts each
 * (`client/counts.ts`).
 */
export type { Standing } from "../core/standing.js";

/** What a person should do about a card that needs them: why, and the one thing that resolves it. */
export interface NeedView {
	why: string;
	/** What to do, in words. */
	fix: string;
	/** The command that does it or shows more, run in the worktree; null when the fix is in the harness. */
	command: string | null;
}

/** A point of a work's progress over time, from the decision log: items done of the total, and whether boulder nudged. */
export interface ProgressPoint {
	at: number;
	done: number;
	total: number;
	nudge: boolean;
}

/** One mark on a session's timeline: a user turn, a continuation, a decision or a system event, with its reason. */
export interface TurnMark {
	at: number;
	lane: "user" | "continuation" | "decision" | "system";
	reason: string;
	headline: string;
	tone: Tone;
}

/** Tokens the episode had spent when boulder decided, against the limit then. */
export interface TokenPoint {
	at: number;
	used: number;
	limit: number;
}

/** How a worktree, work or session reads at a glance: a word and a tone (never the colour alone). */
export interface Badge {
	text: string;
	tone: Tone | "idle";
}

export interface WorktreeView {
	root: string;
	name: string;
	vanished: boolean;
	badge: Badge;
	stopped: { by: string; at: number } | null;
	/** Why part of the worktree could not be read: each is a problem row. */
	problems: string[];
	/** Every problem the card shows: the worktree's, its works' plans and its sessions' state files. */
	problemCount: number;
	/** What needs a person here (the worktree's problems and each session's need), most urgent first. */
	needs: NeedView[];
	works: WorkView[];
	sessions: SessionView[];
}

export interface WorkView {
	id: string;
	name: string;
	status: "active" | "paused" | "completed" | "abandoned";
	active: boolean;
	planPath: string;
	/** The plan file's whole path, to copy or open. */
	planFile: string;
	progress: { total: number; done: number; open: number; blocked: number; cancelled: number } | null;
	progressText: string;
	startedAt: number;
	/** Set for finished works; live ones run until now. */
	elapsedMs: number | null;
	next: string | null;
	/** How many items `/api/items` gives for this work: they are fetched when their section is opened. */
	itemCount: number;
	verify: string[];
	lastVerification: {
		passed: boolean;
		at: number;
		command: string | null;
		exitCode: number | null;
		output: string;
	} | null;
	planProblem: string | null;
	sessions: string[];
	/** Progress over time for live works, oldest first (the newest few lines of the log, then now). */
	history: ProgressPoint[];
}

export interface ItemView {
	title: string;
	status: "pending" | "in_progress" | "completed" | "cancelled" | "blocked";
	section: string | null;
	criteria: { text: string; checked: boolean }[];
}

export interface GaugeView {
	label: string;
	used: number;
	limit: number;
	usedText: string;
	limitText: string;
}

export interface SessionView {
	scope: string;
	harness: string | null;
	sessionId: string | null;
	label: string;
	standing: Standing;
	/** What needs a person, or null. */
	need: NeedView | null;
	workId: string | null;
	workName: string | null;
	badge: Badge;
	stoppedBy: string | null;
	problem: string | null;
	/** Budgets of the current episode against their limits; empty before the first nudge. */
	gauges: GaugeView[];
	/** When the episode started, for the wall-clock gauge to run on. */
	episodeStartedAt: number | null;
	stagnation: { count: number; limit: number } | null;
	/** Why it waits for the user, in words; null when it does not. */
	waiting: string | null;
	/** Where the harness keeps the session's transcript, when it said: shown to copy, never served. */
	transcriptPath: string | null;
	last: TimelineEntry | null;
	lastActive: number;
	/** The session's own todo list when it rolls no work: its progress, next item and items. */
	list: { progressText: string; open: number; next: string | null; items: ItemView[] } | null;
	/** The session's turns and decisions, oldest first, from the newest lines of the log. */
	turns: TurnMark[];
	/** Tokens spent by continuations against the budget, oldest first. */
	tokens: TokenPoint[];
}

export interface TimelineEntry {
	at: number;
	worktree: string;
	worktreeName: string;
	harness: string | null;
	session: string | null;
	sessionLabel: string | null;
	work: string | null;
	kind: string;
	reason: string;
	headline: string;
	text: string;
	tone: Tone;
}

/** What the server pushes on the live stream. */
export type LiveMessage =
	| { type: "snapshot"; view: DashboardView }
	| { type: "worktree"; now: number; worktree: WorktreeView }
	| { type: "timeline"; now: number; entries: TimelineEntry[] };

/** An action the page asks for; the server checks every field against what it shows. */
export interface ActionRequest {
	action: "stop" | "go" | "pause" | "resume" | "abandon";
	worktree: string;
	session?: { harness: string; sessionId: string };
	work?: string;
}

export interface ActionAnswer {
	ok: boolean;
	message: string;
}
