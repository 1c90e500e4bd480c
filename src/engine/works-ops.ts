/**
 * What people do with works: start a plan, pause, resume or abandon it, and
 * stop or restart continuation in the worktree. Each is one locked update of
 * the works file; the CLI and the harness commands call these.
 */
import path from "node:path";
import type { Clock } from "../core/clock.js";
import { BoulderError } from "../core/errors.js";
import { type ParsedPlan, parsePlan, planErrorsMessage } from "../core/plan-parser.js";
import type { Read, Store } from "../state/store.js";
import { emptyWorksFile, type Work, type WorkStatus, type WorksFile } from "../state/works.js";
import type { PlanSource, SessionRef } from "./engine-types.js";
import { logEvent } from "./event-log.js";

export interface WorksDeps {
	store: Store;
	clock: Clock;
	plans: PlanSource;
}

export interface StartOptions {
	/** As the user typed it: absolute, or relative to `cwd`. */
	planPath: string;
	cwd: string;
	name?: string;
	/** The session that starts it is bound `direct`; otherwise the first to go idle is. */
	session?: SessionRef;
	/** `--orchestrate`: the bound session delegates the items to subagents, whatever the plan's front matter says. */
	orchestrate?: boolean;
	/** Who hands the work over when it is bound already (default "`boulder start`"). */
	by?: string;
}

/**
 * What a start did, decided under the works file's lock, so of several
 * starts of one plan at once exactly one says `started`.
 */
export type StartOutcome = "started" | "made-active" | "already-active";

export interface Started {
	work: Work;
	plan: ParsedPlan;
	outcome: StartOutcome;
	/** The works that were active and are paused now to make way for this one. */
	paused: Work[];
	/** The work had bound sessions: the next session that goes idle in the worktree joins it (`docs/handover.md`). */
	handedOver: boolean;
}

/** Who hands a work over when `boulder start` runs on it. */
export const START_BY = "`boulder start`";

export async function startWork(deps: WorksDeps, options: StartOptions): Promise<Started> {
	const worktree = deps.store.worktree;
	const absolute = path.resolve(options.cwd, options.planPath);
	const relative = path.relative(worktree, absolute).split(path.sep).join("/");
	if (relative.startsWith("..") || path.isAbsolute(relative)) {
		throw new BoulderError("plan-invalid", `${options.planPath} is outside this worktree (${worktree})`);
	}
	const text = await deps.plans.read(worktree, relative);
	if (text === null) throw new BoulderError("plan-missing", `no plan file at ${relative}`);
	const plan = parsePlan(text, relative);
	if (plan.errors.length > 0) throw new BoulderError("plan-invalid", planErrorsMessage(plan.errors, relative));
	if (plan.items.length === 0) {
		throw new BoulderError("plan-invalid", `${relative} has no top-level checkbox items (- [ ] …) to work through`);
	}
	const name =
		options.name ?? plan.frontMatter.name ?? titleOf(text) ?? path.basename(relative, path.extname(relative));
	const now = deps.clock.now();
	const { work, outcome, paused, handedOver } = await deps.store.updateWorks((current) => {
		const file = worksOrThrow(current);
		const active = file.activeWorkId ? file.works[file.activeWorkId] : undefined;
		if (plan.counts.open === 0 && active && active.planPath !== relative) throw nothingOpen(relative, plan, active);
		const existing = Object.values(file.works).find(
			(candidate) =>
				candidate.planPath === relative && (candidate.status === "active" || candidate.status === "paused"),
		);
		const outcome: StartOutcome = !existing
			? "started"
			: existing.status === "active" && file.activeWorkId === existing.id
				? "already-active"
				: "made-active";
		const base: Work = existing ?? {
			id: uniqueId(file, name),
			planPath: relative,
			name,
			status: "active",
			startedAt: now,
			endedAt: null,
			elapsedMs: null,
			sessions: [],
			agent: options.session?.agent ?? null,
			worktree,
			subagentSessions: {},
			verify: [],
			verifyTimeoutMs: null,
			lastVerification: null,
		};
		const sessions = options.session
			? [
					...base.sessions.filter(
						(s) => !(s.harness === options.session?.harness && s.sessionId === options.session.sessionId),
					),
					{ harness: options.session.harness, sessionId: options.session.sessionId, how: "direct" as const, at: now },
				]
			: base.sessions;
		// Started by a session, that session rolls it; by a person, an already bound work is handed to the next.
		const handedOver = !options.session && sessions.length > 0;
		const started: Work = {
			...base,
			worktree,
			name: options.name ?? base.name,
			status: "active",
			sessions,
			verify: plan.frontMatter.verify,
			verifyTimeoutMs: plan.frontMatter.verifyTimeoutMs,
			...(options.orchestrate ? { mode: "orchestrate" as const } : {}),
			...(handedOver ? { handover: { at: now, by: options.by ?? START_BY } } : base.handover ? { handover: null } : {}),
		};
		const { works, paused } = pauseOthers(file.works, started.id);
		works[started.id] = started;
		return {
			result: { work: started, outcome, paused, handedOver },
			next: { ...file, activeWorkId: started.id, works },
		};
	});
	// The user started it here: theirs from now on, with the verify commands `start` showed them.
	await deps.store.grantTrust({ works: [work], verify: [work.verify] });
	return { work, plan, outcome, paused, handedOver };
}

export interface Trusted {
	/** The works that were foreign and are now the user's. */
	works: Work[];
	/** The verify command lists approved, each as the work runs it. */
	verify: { work: Work; commands: string[] }[];
}

/**
 * `boulder trust`: the user takes on the works of this worktree that boulder
 * did not record for them (a checkout's, a copy's), or the one named, and
 * approves the verify commands each would run now (its own, else its plan's
 * front matter). A work that names another folder is moved to this one.
 */
export async function trustWorks(deps: WorksDeps, ref?: string): Promise<Trusted> {
	const worktree = deps.store.worktree;
	const works = await deps.store.updateWorks((current) => {
		const file = worksOrThrow(current);
		const chosen = ref
			? [findWork(file, ref)]
			: Object.values(file.works).filter((work) => work.status === "active" || work.status === "paused");
		const moved = chosen.map((work) => ({ ...work, worktree }));
		const changed = moved.some((work, index) => work.worktree !== chosen[index]?.worktree);
		const next = { ...file, works: { ...file.works, ...Object.fromEntries(moved.map((work) => [work.id, work])) } };
		return { result: moved, next: changed ? next : null };
	});
	const verify: Trusted["verify"] = [];
	for (const work of works) {
		const commands = work.verify.length > 0 ? work.verify : await planVerify(deps, work);
		if (commands.length > 0) verify.push({ work, commands });
	}
	await deps.store.grantTrust({ works, verify: verify.map((entry) => entry.commands) });
	return { works, verify };
}

/** The verify commands of the work's plan front matter, or none when the plan cannot be read. */
async function planVerify(deps: WorksDeps, work: Work): Promise<string[]> {
	try {
		const text = await deps.plans.read(deps.store.worktree, work.planPath);
		return text === null ? [] : parsePlan(text, work.planPath).frontMatter.verify;
	} catch {
		// An unreadable plan has nothing to approve; `boulder doctor` and `why` say what is wrong with it.
		return [];
	}
}

/**
 * A plan with nothing open would start a work with nothing to do and pause
 * the active work for it: refused, saying what stays as it was. (With no
 * other work active, it starts: its verify commands, if any, run on the next idle.)
 */
function nothingOpen(relative: string, plan: ParsedPlan, active: Work): BoulderError {
	const { total, completed, blocked, cancelled } = plan.counts;
	const rest = [blocked > 0 ? `${blocked} blocked` : "", cancelled > 0 ? `${cancelled} cancelled` : ""].filter(Boolean);
	return new BoulderError(
		"plan-done",
		`${relative} has nothing open: ${completed} of ${total} item${total === 1 ? "" : "s"} done${rest.length > 0 ? ` (${rest.join(", ")})` : ""}. Starting it would pause "${active.name}" for nothing, so nothing changed: "${active.name}" stays the active work. Add a \`- [ ]\` item to the plan, or \`boulder pause\` first, to start it anyway.`,
	);
}

/**
 * Finds a work by id, name or plan path; without one, the active work. With
 * `prefix` (what a person types: the CLI), a unique start of an id is that work.
 */
export function findWork(file: WorksFile, ref?: string, options: { prefix?: boolean } = {}): Work {
	if (!ref) {
		const active = file.activeWorkId ? file.works[file.activeWorkId] : undefined;
		if (!active) throw new BoulderError("not-found", "there is no active work; `boulder start PLAN.md` starts one");
		return active;
	}
	const all = Object.values(file.works);
	const found = file.works[ref] ?? all.find((work) => work.name === ref || work.planPath === ref);
	if (found) return found;
	// A unique start of an id is that work; anything else is refused with the candidates, never guessed.
	const prefixed = options.prefix ? all.filter((work) => work.id.startsWith(ref)) : [];
	if (prefixed.length === 1 && prefixed[0]) return prefixed[0];
	if (prefixed.length > 1) {
		throw new BoulderError(
			"usage",
			`"${ref}" names ${prefixed.length} works: ${listedWorks(prefixed)}; give more of the id`,
		);
	}
	throw new BoulderError(
		"usage",
		all.length === 0
			? `no work named "${ref}": this worktree has no works; \`boulder start PLAN.md\` starts one`
			: `no work named "${ref}"; the works here: ${listedWorks(all)}`,
	);
}

function listedWorks(works: readonly Work[]): string {
	return works.map((work) => `${work.id} (${work.status}, ${work.planPath})`).join(", ");
}

export interface StatusChange {
	work: Work;
	/** false: the work already had that status (pausing a paused work); nothing was written. */
	changed: boolean;
	/** The works paused to make way for the one made active. */
	paused: Work[];
}

/**
 * Contract: a completed work cannot change, and an abandoned one only comes
 * back (`active`, what `boulder resume` asks) while no other live work rolls
 * its plan; anything else is a `not-found` error (no live work of that name:
 * exit 1), not a usage error.
 */
export async function setWorkStatus(
	deps: WorksDeps,
	status: WorkStatus,
	ref?: string,
	by = "`boulder resume`",
): Promise<StatusChange> {
	return deps.store.updateWorks<StatusChange>((current) => {
		const file = worksOrThrow(current);
		const work = findWork(file, ref);
		// An abandoned work comes back with `resume` (abandoning is undoable); a completed one is over.
		const revived = work.status === "abandoned" && status === "active";
		if (work.status === "completed" || (work.status === "abandoned" && !revived)) {
			throw new BoulderError(
				"not-found",
				`the work "${work.name}" is already ${work.status}; ${
					work.status === "abandoned"
						? `\`boulder resume ${work.id}\` brings it back`
						: `\`boulder start ${work.planPath}\` starts its plan afresh`
				}`,
			);
		}
		if (revived) {
			const rival = Object.values(file.works).find(
				(other) =>
					other.id !== work.id &&
					other.planPath === work.planPath &&
					(other.status === "active" || other.status === "paused"),
			);
			if (rival) {
				throw new BoulderError(
					"not-found",
					`${work.planPath} is rolled by the work "${rival.name}" (${rival.id}, ${rival.status}) now; one plan has one live work, so "${work.name}" stays abandoned`,
				);
			}
		}
		if (work.status === status && (status !== "active" || file.activeWorkId === work.id)) {
			return { result: { work, changed: false, paused: [] }, next: null };
		}
		const now = deps.clock.now();
		const ended =
			status === "abandoned"
				? { endedAt: now, elapsedMs: Math.max(0, now - work.startedAt) }
				: revived
					? { endedAt: null, elapsedMs: null }
					: {};
		// Resuming is an explicit act: a work bound to other sessions goes to the next one that goes idle.
		const handover = status === "active" && work.sessions.length > 0 ? { handover: { at: now, by } } : {};
		const updated: Work = { ...work, status, ...ended, ...handover };
		const { works, paused } =
			status === "active" ? pauseOthers(file.works, work.id) : { works: { ...file.works }, paused: [] };
		works[work.id] = updated;
		const activeWorkId =
			status === "active"
				? work.id
				: file.activeWorkId === work.id && status === "abandoned"
					? null
					: file.activeWorkId;
		return { result: { work: updated, changed: true, paused }, next: { ...file, works, activeWorkId } };
	});
}

const STATUS_EVENT = { paused: "work-paused", active: "work-resumed", abandoned: "work-abandoned" } as const;

/**
 * Pauses, resumes or abandons a work (`setWorkStatus`) and logs it, and each
 * work paused to make way, as events naming who did it (`by`: "`boulder
 * pause`", "the dashboard"). The CLI and the dashboard both come here, so
 * both are logged alike. Returns the change and the warnings of lines that
 * could not be logged.
 */
export async function changeWorkStatus(
	deps: WorksDeps,
	status: keyof typeof STATUS_EVENT,
	ref: string | undefined,
	by: string,
): Promise<StatusChange & { warnings: string[] }> {
	const change = await setWorkStatus(deps, status, ref, by);
	if (!change.changed) return { ...change, warnings: [] };
	const { work } = change;
	const lines = [
		{ reason: STATUS_EVENT[status], detail: `"${work.name}", by ${by}`, work: work.id },
		...change.paused.map((other) => ({
			reason: "work-paused" as const,
			detail: `"${other.name}", to make way for "${work.name}" (${by})`,
			work: other.id,
		})),
	];
	const warnings: string[] = [];
	for (const line of lines) {
		const warning = await logEvent(deps.store, deps.clock, line);
		if (warning) warnings.push(warning);
	}
	return { ...change, warnings };
}

/**
 * `boulder stop` / `boulder go` and `/boulder go`: the worktree-wide switch;
 * it holds across restarts. A change is logged as an event, so `boulder why`
 * tells it whoever made it. Returns whether it changed, and a warning when
 * the log could not be written.
 */
export async function setStopped(
	deps: WorksDeps,
	stopped: boolean,
	by: string,
): Promise<{ changed: boolean; warning: string | null; handedOver: Work | null }> {
	const { changed, handedOver } = await deps.store.updateWorks((current) => {
		const file = current.kind === "ok" ? current.value : emptyWorksFile();
		if (current.kind === "unreadable" && !stopped) {
			throw new BoulderError("state-unreadable", "the works file is unreadable; run `boulder doctor` first");
		}
		const was = file.stopped !== null;
		const now = deps.clock.now();
		const next: WorksFile = { ...file, stopped: stopped ? { at: now, by } : null };
		// Turning continuation on is an explicit act too: a work bound to other sessions goes to the next one.
		const active = file.activeWorkId ? file.works[file.activeWorkId] : undefined;
		const handedOver =
			!stopped && active && active.status === "active" && active.sessions.length > 0
				? { ...active, handover: { at: now, by } }
				: null;
		if (handedOver) next.works = { ...file.works, [handedOver.id]: handedOver };
		const changed = was !== stopped;
		return { result: { changed, handedOver }, next };
	});
	if (!changed) return { changed, warning: null, handedOver };
	const warning = await logEvent(deps.store, deps.clock, {
		reason: stopped ? "stopped" : "resumed",
		detail: `continuation turned ${stopped ? "off" : "on"} in this worktree by ${by}`,
	});
	return { changed, warning, handedOver };
}

export function worksOrThrow(current: Read<WorksFile>): WorksFile {
	if (current.kind === "ok") return current.value;
	if (current.kind === "missing") return emptyWorksFile();
	throw new BoulderError(
		"state-unreadable",
		`the works file was unreadable (${current.problem.reason}) and was moved aside to ${current.problem.movedTo ?? "nowhere"}; run \`boulder doctor\``,
	);
}

function pauseOthers(works: Record<string, Work>, keep: string): { works: Record<string, Work>; paused: Work[] } {
	const out: Record<string, Work> = {};
	const paused: Work[] = [];
	for (const [id, work] of Object.entries(works)) {
		if (id !== keep && work.status === "active") {
			const now: Work = { ...work, status: "paused" };
			out[id] = now;
			paused.push(now);
		} else {
			out[id] = work;
		}
	}
	return { works: out, paused };
}

/** `Café Über` → `cafe-uber`: accents are dropped (NFKD, then the combining marks), not turned into dashes. */
function uniqueId(file: WorksFile, name: string): string {
	const base =
		name
			.normalize("NFKD")
			.replace(/\p{M}/gu, "")
			.toLowerCase()
			.replace(/[^a-z0-9]+/g, "-")
			.replace(/^-+|-+$/g, "")
			.slice(0, 40) || "work";
	if (!file.works[base]) return base;
	for (let n = 2; ; n++) if (!file.works[`${base}-${n}`]) return `${base}-${n}`;
}

function titleOf(text: string): string | null {
	const match = /^#\s+(.+)$/m.exec(text);
	return match?.[1]?.trim() || null;
}
