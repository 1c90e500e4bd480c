/**
 * What the engine knows about the worktree's works when a session goes idle:
 * the active work and its plan read as a `WorkView`, whether this session is
 * bound to it (the first session to come binds itself), and the facts guards
 * 1 to 3 read — switched off, bound elsewhere, plan missing, unreadable or
 * with errors. Facts only: the policy owns the wording.
 *
 * Contract: reads and writes go through the `Store`; plans through `PlanSource`.
 */

import path from "node:path";
import type { Clock } from "../core/clock.js";
import type { Config } from "../core/config.js";
import {
	type ParsedPlan,
	type PlanError,
	type PlanItem,
	parsePlan,
	planErrorsMessage,
	planView,
} from "../core/plan-parser.js";
import type { ForeignWork, PlanUnusable, SessionFacts } from "../core/policy.js";
import type { WorkView } from "../core/work-view.js";
import type { Store } from "../state/store.js";
import { isVerifyApproved, isWorkTrusted, type TrustView } from "../state/trust.js";
import type { Work } from "../state/works.js";
import { fileProblemOf } from "./bounded-read.js";
import type { PlanSource, SessionRef } from "./engine-types.js";

export interface WorkContext {
	/** The bound work's plan, read now; null when the session rolls its own list (or nothing). */
	view: WorkView | null;
	/** The work this session is bound to. */
	work: Work | null;
	/** The bound plan's items, with their acceptance criteria, when the plan was read. */
	items?: PlanItem[];
	facts: Pick<
		SessionFacts,
		"switchedOff" | "boundElsewhere" | "planUnusable" | "foreign" | "verifyHeld" | "verifyRunning"
	>;
}

export interface WorkContextDeps {
	store: Store;
	config: Config;
	clock: Clock;
	plans: PlanSource;
}

/** `bind: false` only reads: a session that is not bound yet stays unbound (the first idle binds, not a mere look). */
export async function readWorkContext(
	deps: WorkContextDeps,
	ref: SessionRef,
	options: { bind?: boolean } = {},
): Promise<WorkContext> {
	const none: WorkContext = { view: null, work: null, facts: {} };
	const works = await deps.store.readWorks();
	if (works.kind === "unreadable") {
		return { ...none, facts: { switchedOff: { kind: "works-unreadable", movedTo: works.problem.movedTo } } };
	}
	if (works.kind === "missing") return none;
	const file = works.value;
	const stopped = file.stopped ? ({ kind: "worktree-stopped", by: file.stopped.by } as const) : null;
	const active = file.activeWorkId ? file.works[file.activeWorkId] : undefined;
	if (!active || (active.status !== "active" && active.status !== "paused") || ref.subagent) {
		return { ...none, facts: { switchedOff: stopped } };
	}
	const trust = await deps.store.readTrust();
	const foreign = foreignOf(deps.store, trust, active);
	if (foreign) return { ...none, facts: { switchedOff: stopped, foreign } };
	let work = active;
	if (!isBound(work, ref)) {
		const open = work.sessions.length === 0 || (work.handover ?? null) !== null;
		if (open && work.status === "active" && options.bind !== false) {
			work = await bind(deps, work.id, ref);
		}
		if (!isBound(work, ref)) {
			const owner = work.sessions[0];
			const boundElsewhere = owner
				? { work: work.name, harness: owner.harness, sessionId: owner.sessionId, planPath: work.planPath }
				: null;
			return { ...none, facts: { switchedOff: stopped, boundElsewhere } };
		}
	}
	const switchedOff =
		stopped ?? (work.status === "paused" ? ({ kind: "work-paused", work: work.name } as const) : null);
	const outside = planPathProblem(work.planPath);
	if (outside) {
		return {
			view: null,
			work,
			facts: { switchedOff, planUnusable: { path: work.planPath, problem: "unreadable", detail: outside } },
		};
	}
	let text: string | null;
	try {
		text = await deps.plans.read(deps.store.worktree, work.planPath);
	} catch (error) {
		return { view: null, work, facts: { switchedOff, planUnusable: unreadablePlan(work.planPath, error) } };
	}
	if (text === null) {
		return { view: null, work, facts: { switchedOff, planUnusable: { path: work.planPath, problem: "missing" } } };
	}
	const plan = await parsedPlan(deps.store, work.planPath, text);
	if (plan.errors.length > 0) {
		return { view: null, work, facts: { switchedOff, planUnusable: planWithErrors(work.planPath, plan.errors) } };
	}
	const view = planView(plan, work.name, deps.config.nextItems);
	const verify = work.verify.length > 0 ? work.verify : view.verify;
	const orchestrating = work.mode === "orchestrate" || plan.frontMatter.mode === "orchestrate";
	const orchestrate = orchestrating ? { orchestrate: { subagents: work.subagentSessions } } : {};
	const verifyHeld = isVerifyApproved(trust, verify) ? null : { commands: verify.length };
	return {
		view: { ...view, verify, ...orchestrate },
		work,
		items: plan.items,
		facts: { switchedOff, ...(verifyHeld ? { verifyHeld } : {}) },
	};
}

/**
 * The plan parsed, from the store's cache when it keeps this very text: a
 * hook reads the plan on every event, and it changes far less often. A
 * cache that cannot be written costs only the parse next time.
 */
async function parsedPlan(store: Store, planPath: string, text: string): Promise<ParsedPlan> {
	const kept = await store.readPlanParse?.(planPath, text);
	if (kept) return kept;
	const plan = parsePlan(text, planPath);
	await store.writePlanParse?.(planPath, text, plan).catch(() => {
		// A cache: nothing is lost, the next read parses the plan again.
	});
	return plan;
}

/**
 * Why the active work is not this user's to act on, or null when it is: it
 * must name this very worktree, and the trust record (outside the worktree)
 * must say this user started or approved it on this machine.
 */
export function foreignOf(store: Store, trust: TrustView, work: Work): ForeignWork | null {
	const other = !path.isAbsolute(work.worktree) || path.resolve(work.worktree) !== path.resolve(store.worktree);
	if (other) return { work: work.name, planPath: work.planPath, why: "other-worktree" };
	if (isWorkTrusted(trust, work)) return null;
	return { work: work.name, planPath: work.planPath, why: "not-recorded" };
}

/**
 * Contract: a plan path stays inside the worktree: relative, and no `..`
 * segment (links are checked where the file is read, `plan-files.ts`).
 * Returns what is wrong, or null.
 */
export function planPathProblem(planPath: string): string | null {
	if (path.isAbsolute(planPath) || /^[a-zA-Z]:/.test(planPath) || planPath.startsWith("\\")) {
		return "its path is absolute; a plan must lie inside the worktree";
	}
	if (planPath.split(/[\\/]/).includes("..")) return "its path leaves the worktree (`..`)";
	return null;
}

/**
 * Binds the session to the work: the first session to come to a work nobody
 * rolls yet, or the next after an explicit handover (appended to the ones
 * bound), unless another session was quicker (two sessions idle at once).
 */
async function bind(deps: WorkContextDeps, workId: string, ref: SessionRef): Promise<Work> {
	return deps.store.updateWorks((current) => {
		const file = current.kind === "ok" ? current.value : null;
		const work = file?.works[workId];
		if (!file || !work) throw new Error(`work ${workId} vanished while binding`);
		if (isBound(work, ref)) return { result: work, next: null };
		if (work.sessions.length > 0 && !work.handover) return { result: work, next: null };
		const bound: Work = {
			...work,
			sessions: [
				...work.sessions,
				{ harness: ref.harness, sessionId: ref.sessionId, how: "appended", at: deps.clock.now() },
			],
			agent: work.agent ?? ref.agent ?? null,
			...(work.handover ? { handover: null } : {}),
		};
		return { result: bound, next: { ...file, works: { ...file.works, [workId]: bound } } };
	});
}

/** A plan the `PlanSource` could not read (a FIFO, too large, not permitted): never continued, verified or completed. */
function unreadablePlan(planPath: string, error: unknown): PlanUnusable {
	const detail = fileProblemOf(error)?.reason ?? (error instanceof Error ? error.message : String(error));
	return { path: planPath, problem: "unreadable", detail };
}

/**
 * A plan with errors may have lost items (a checkbox hidden in a fence never
 * closed, a mark boulder cannot read), so it could look done when it is not:
 * it is never continued, verified or completed until it is fixed.
 */
function planWithErrors(planPath: string, errors: readonly PlanError[]): PlanUnusable {
	const first = planErrorsMessage(errors.slice(0, 1), planPath);
	const more = errors.length > 1 ? ` (and ${errors.length - 1} more; \`boulder plans\` lists them)` : "";
	return { path: planPath, problem: "errors", detail: `${first}${more}` };
}

export function isBound(work: Work, ref: SessionRef): boolean {
	return work.sessions.some((session) => session.harness === ref.harness && session.sessionId === ref.sessionId);
}
