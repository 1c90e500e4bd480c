/**
 * One worktree as the dashboard sees it, kept up to date cheaply: each look
 * stats the state folder's parts, the project config and the plans of live
 * works, and re-reads only what changed (the decision log from where it left
 * off). Data only; the dashboard words and draws it.
 *
 * Contract: only looks. A bad works or scope file is reported and left where
 * it is (the engine moves it aside when it next needs it); a worktree whose
 * folder is gone is `vanished`, not an error.
 */

import { statSync } from "node:fs";
import path from "node:path";
import { clipTitle } from "../core/clip.js";
import type { Config } from "../core/config.js";
import type { DecisionRecord } from "../core/decision-record.js";
import { isBoulderError } from "../core/errors.js";
import { parsePlan } from "../core/plan-parser.js";
import { type PlanProgress, summarizePlan } from "../core/plan-summary.js";
import { sessionOfScopeKey } from "../core/scope-key.js";
import type { TodoStatus } from "../core/todos.js";
import type { ContinuationState } from "../core/turns.js";
import type { LogPosition } from "../state/decision-tail.js";
import type { FileStore } from "../state/file-store.js";
import type { Read } from "../state/store.js";
import type { Work, WorksFile, WorkVerification } from "../state/works.js";
import { loadConfig, PROJECT_CONFIG_FILE } from "./config-loader.js";
import type { PlanSource } from "./engine-types.js";
import { findProject, projectStore } from "./worktree.js";

export interface FleetItem {
	title: string;
	status: TodoStatus;
	section: string | null;
	criteria: { text: string; checked: boolean }[];
}

export interface FleetWork {
	work: Work;
	/** The worktree's active work. */
	active: boolean;
	progress: PlanProgress | null;
	next: string | null;
	items: FleetItem[];
	verify: string[];
	planProblem: string | null;
	lastVerification: WorkVerification | null;
}

export interface FleetSession {
	scope: string;
	/** From the state, else read back from the scope key; null when neither tells. */
	harness: string | null;
	sessionId: string | null;
	/** The id of the work this session is bound to. */
	work: string | null;
	/** The state as read, or why it could not be. */
	state: ContinuationState | null;
	problem: string | null;
	/** The newest decision-log line of this session among those kept. */
	lastRecord: DecisionRecord | null;
}

export interface FleetWorktreeData {
	root: string;
	vanished: boolean;
	stopped: WorksFile["stopped"];
	works: FleetWork[];
	sessions: FleetSession[];
	/** Why the works file could not be read. */
	problem: string | null;
	configProblem: string | null;
	config: Config | null;
	/** Unreadable decision-log lines met while following it. */
	skippedLines: number;
	/** The newest decision-log lines of this worktree, newest last. */
	decisions: DecisionRecord[];
}

export interface LookResult {
	changed: boolean;
	/** Decision-log lines new since the last look. */
	fresh: DecisionRecord[];
}

interface PlanEntry {
	stamp: string;
	text: string | null;
	problem: string | null;
}

interface ScopeEntry {
	stamp: string;
	read: Read<ContinuationState>;
}

const STATUS_ORDER = { active: 0, paused: 1, completed: 2, abandoned: 3 } as const;

/**
 * Every how many looks each known scope file is stat (a file rewritten in
 * place leaves its folder's stamp as it was): the dashboard looks every
 * 250 ms, so a file that broke shows within a second, and an idle look over
 * a big fleet stats the scope files a third as often.
 */
export const KNOWN_SCOPES_EVERY = 3;

export class FleetWorktree {
	readonly root: string;
	private readonly store: FileStore;
	private readonly env: NodeJS.ProcessEnv;
	private readonly plans: PlanSource;
	private readonly keepDecisions: number;
	private stamps = { root: "", works: "", decisions: "", scopes: "", config: "", userConfig: "" };
	private vanished = false;
	private works: Read<WorksFile> = { kind: "missing" };
	private readonly planEntries = new Map<string, PlanEntry>();
	private scopes = new Map<string, ScopeEntry>();
	private looksSinceScopeSweep = 0;
	private decisions: DecisionRecord[] = [];
	private position: LogPosition | null = null;
	private skippedLines = 0;
	private config: { config: Config | null; problem: string | null } = { config: null, problem: null };
	private view: FleetWorktreeData | null = null;

	constructor(root: string, options: { env: NodeJS.ProcessEnv; plans: PlanSource; keepDecisions: number }) {
		this.root = root;
		// A folder that is no project keeps its state under the user's state folder: read it there.
		this.store = projectStore(findProject(root), options.env);
		this.env = options.env;
		this.plans = options.plans;
		this.keepDecisions = options.keepDecisions;
	}

	/** The worktree as last read; `look` first. */
	data(): FleetWorktreeData {
		this.view ??= this.build();
		return this.view;
	}

	/**
	 * Stats what the worktree's view depends on and re-reads what changed.
	 * `userConfigStamp` is the user config's, stat once per sweep by the caller.
	 */
	async look(userConfigStamp: string): Promise<LookResult> {
		const exists = await folderStamp(this.root);
		if (exists === "-") {
			const changed = !this.vanished;
			this.vanished = true;
			if (changed) this.view = null;
			return { changed, fresh: [] };
		}
		let changed = this.vanished || this.stamps.root === "";
		this.vanished = false;
		this.stamps.root = exists;
		const stamps = await this.store.stamps();
		const configStamp = await fileStamp(path.join(this.root, PROJECT_CONFIG_FILE));
		if (stamps.works !== this.stamps.works) {
			this.works = await this.store.peekWorks();
			this.stamps.works = stamps.works;
			changed = true;
		}
		if (await this.lookAtPlans()) changed = true;
		if (stamps.scopes !== this.stamps.scopes) {
			this.stamps.scopes = stamps.scopes;
			if (await this.lookAtScopes()) changed = true;
		} else if (++this.looksSinceScopeSweep >= KNOWN_SCOPES_EVERY) {
			this.looksSinceScopeSweep = 0;
			if (await this.lookAtKnownScopes()) changed = true;
		}
		let fresh: DecisionRecord[] = [];
		if (stamps.decisions !== this.stamps.decisions) {
			this.stamps.decisions = stamps.decisions;
			fresh = await this.lookAtDecisions();
			if (fresh.length > 0) changed = true;
		}
		if (configStamp !== this.stamps.config || userConfigStamp !== this.stamps.userConfig) {
			this.stamps.config = configStamp;
			this.stamps.userConfig = userConfigStamp;
			this.config = this.loadConfig();
			changed = true;
		}
		if (changed) this.view = null;
		return { changed, fresh };
	}

	/** Plans of live works are stat each look; a finished work's plan is read once. */
	private async lookAtPlans(): Promise<boolean> {
		const works = this.works.kind === "ok" ? Object.values(this.works.value.works) : [];
		const wanted = new Map<string, boolean>();
		for (const work of works) {
			const live = work.status === "active" || work.status === "paused";
			wanted.set(work.planPath, (wanted.get(work.planPath) ?? false) || live);
		}
		let changed = false;
		for (const planPath of this.planEntries.keys()) {
			if (!wanted.has(planPath)) {
				this.planEntries.delete(planPath);
				changed = true;
			}
		}
		await Promise.all(
			[...wanted].map(async ([planPath, live]) => {
				const known = this.planEntries.get(planPath);
				if (known && !live) return;
				const stamp = await fileStamp(path.resolve(this.root, planPath));
				if (known && known.stamp === stamp) return;
				this.planEntries.set(planPath, { stamp, ...(await this.readPlan(planPath)) });
				changed = true;
			}),
		);
		return changed;
	}

	private async readPlan(planPath: string): Promise<{ text: string | null; problem: string | null }> {
		try {
			const text = await this.plans.read(this.root, planPath);
			return text === null ? { text, problem: `the plan file ${planPath} is missing` } : { text, problem: null };
		} catch (error) {
			return { text: null, problem: error instanceof Error ? error.message : String(error) };
		}
	}

	private async lookAtScopes(): Promise<boolean> {
		const stamps = await this.store.scopeStamps();
		let changed = stamps.size !== this.scopes.size;
		const next = new Map<string, ScopeEntry>();
		await Promise.all(
			[...stamps].map(async ([key, stamp]) => {
				const known = this.scopes.get(key);
				if (known && known.stamp === stamp) {
					next.set(key, known);
					return;
				}
				changed = true;
				next.set(key, { stamp, read: await this.readScope(key) });
			}),
		);
		this.scopes = next;
		return changed;
	}

	/**
	 * A scope file rewritten in place (an editor, a disk error, a copy over it)
	 * leaves its folder's stamp as it was: each known file is stat too, so a
	 * file that became unreadable shows within a look, like any other change.
	 */
	private async lookAtKnownScopes(): Promise<boolean> {
		let changed = false;
		await Promise.all(
			[...this.scopes].map(async ([key, known]) => {
				const stamp = await fileStamp(this.store.scopeFile(key));
				if (stamp === known.stamp || stamp === "-") return;
				changed = true;
				this.scopes.set(key, { stamp, read: await this.readScope(key) });
			}),
		);
		return changed;
	}

	private async readScope(key: string): Promise<Read<ContinuationState>> {
		try {
			return await this.store.readScope(key);
		} catch (error) {
			const reason = error instanceof Error ? error.message : String(error);
			return { kind: "unreadable", problem: { file: key, movedTo: null, reason, at: 0 } };
		}
	}

	private async lookAtDecisions(): Promise<DecisionRecord[]> {
		const read =
			this.position === null
				? await this.store.newestDecisions(this.keepDecisions)
				: await this.store.decisionsSince(this.position);
		const first = this.position === null;
		this.position = read.position;
		this.skippedLines += read.skipped;
		if (read.records.length === 0) return [];
		this.decisions = [...this.decisions, ...read.records].slice(-this.keepDecisions);
		return first ? [] : read.records;
	}

	private loadConfig(): { config: Config | null; problem: string | null } {
		try {
			return { config: loadConfig(this.root, this.env).config, problem: null };
		} catch (error) {
			if (isBoulderError(error)) return { config: null, problem: error.message };
			throw error;
		}
	}

	private build(): FleetWorktreeData {
		const base: FleetWorktreeData = {
			root: this.root,
			vanished: this.vanished,
			stopped: null,
			works: [],
			sessions: [],
			problem: null,
			configProblem: this.config.problem,
			config: this.config.config,
			skippedLines: this.skippedLines,
			decisions: this.decisions,
		};
		if (this.works.kind === "unreadable") {
			base.problem = `the works file could not be read (${this.works.problem.reason}); it is left in place and nothing is continued here until it is fixed or \`boulder doctor\` moves it aside`;
		}
		const file = this.works.kind === "ok" ? this.works.value : null;
		const works = file ? Object.values(file.works) : [];
		base.stopped = file?.stopped ?? null;
		base.works = works
			.map((work) => this.workOf(work, file?.activeWorkId === work.id))
			.sort((a, b) => STATUS_ORDER[a.work.status] - STATUS_ORDER[b.work.status] || b.work.startedAt - a.work.startedAt);
		base.sessions = this.sessionsOf(works);
		return base;
	}

	private workOf(work: Work, active: boolean): FleetWork {
		const entry = this.planEntries.get(work.planPath);
		const view: FleetWork = {
			work,
			active,
			progress: null,
			next: null,
			items: [],
			verify: work.verify,
			planProblem: entry?.problem ?? null,
			lastVerification: work.lastVerification,
		};
		if (!entry || entry.text === null) return view;
		const plan = parsePlan(entry.text, work.planPath);
		const progress = summarizePlan(plan);
		return {
			...view,
			...progress,
			verify: plan.frontMatter.verify.length > 0 ? plan.frontMatter.verify : work.verify,
			items: plan.items.map((item) => ({
				title: clipTitle(item.title),
				status: item.status,
				section: item.section === null ? null : clipTitle(item.section),
				criteria: item.criteria.map((criterion) => ({ text: clipTitle(criterion.text), checked: criterion.checked })),
			})),
		};
	}

	private sessionsOf(works: readonly Work[]): FleetSession[] {
		const lastBySession = new Map<string, DecisionRecord>();
		for (const record of this.decisions) {
			if (record.harness && record.session) lastBySession.set(`${record.harness}\u0000${record.session}`, record);
		}
		const sessions: FleetSession[] = [];
		for (const [scope, entry] of this.scopes) {
			const state = entry.read.kind === "ok" ? entry.read.value : null;
			const decoded = sessionOfScopeKey(scope);
			const harness = state?.observed.harness ?? decoded?.harness ?? null;
			const sessionId = state?.observed.sessionId ?? decoded?.sessionId ?? null;
			const bound = works.find(
				(work) =>
					(work.status === "active" || work.status === "paused") &&
					work.sessions.some((s) => s.harness === harness && s.sessionId === sessionId),
			);
			sessions.push({
				scope,
				harness,
				sessionId,
				work: bound?.id ?? null,
				state,
				problem:
					entry.read.kind === "unreadable"
						? `its state file could not be read (${entry.read.problem.reason}); boulder does not continue it until you write to it again`
						: null,
				lastRecord: lastBySession.get(`${harness}\u0000${sessionId}`) ?? null,
			});
		}
		return sessions.sort((a, b) => lastActive(b) - lastActive(a) || a.scope.localeCompare(b.scope));
	}
}

/** When the session last did anything boulder saw. */
export function lastActive(session: FleetSession): number {
	const state = session.state;
	return Math.max(
		session.lastRecord?.at ?? 0,
		state?.turn?.endedAt ?? 0,
		state?.turn?.startedAt ?? 0,
		state?.lastDecision?.at ?? 0,
		state?.disabled?.at ?? 0,
	);
}

/**
 * A file's inode, size and modification time; "-" when it is absent.
 * Synchronous on purpose: a look makes hundreds of these, and a plain stat is
 * cheaper than a trip through the thread pool for each.
 */
export async function fileStamp(file: string): Promise<string> {
	try {
		const found = statSync(file);
		return `${found.ino}:${found.size}:${found.mtimeMs}`;
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return "-";
		return `error:${code ?? "unknown"}`;
	}
}

async function folderStamp(dir: string): Promise<string> {
	try {
		return statSync(dir).isDirectory() ? "folder" : "-";
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return "-";
		throw error;
	}
}
