/**
 * A failure an adapter meets before the engine could open (unreadable hook
 * input, a broken config, a missing project folder): logged in the worktree's
 * decision log when boulder already keeps state there, so `boulder why` can
 * tell it; otherwise handed back for the adapter's stderr. Never creates
 * boulder's folder in a project that has none.
 */
import { existsSync } from "node:fs";
import type { Clock } from "../core/clock.js";
import { FileStore } from "../state/file-store.js";
import { systemClock } from "../state/store.js";
import { logEvent } from "./event-log.js";
import { findWorktreeRoot } from "./worktree.js";

export interface EarlyProblem {
	/** The folder the harness said the session works in. */
	folder: string;
	harness: string;
	session: string | null;
	/** Where it happened and what: "claude-code Stop hook: the input is not JSON". */
	message: string;
}

/**
 * Contract: never throws. Returns the lines the caller should still write to
 * its stderr: none when the problem is in the decision log.
 */
export async function recordEarlyProblem(problem: EarlyProblem, clock: Clock = systemClock): Promise<string[]> {
	const stderr = [`boulder: ${problem.message}`];
	try {
		const worktree = existsSync(problem.folder) ? findWorktreeRoot(problem.folder) : null;
		if (worktree === null) return stderr;
		const store = new FileStore(worktree, { clock });
		if (!existsSync(store.dir)) return stderr;
		const warning = await logEvent(store, clock, {
			reason: "error",
			detail: problem.message,
			harness: problem.harness,
			session: problem.session,
		});
		return warning ? [`boulder: could not record an error in the decision log: ${warning}`, ...stderr] : [];
	} catch (error) {
		const why = error instanceof Error ? error.message : String(error);
		return [`boulder: could not record an error in the decision log: ${why}`, ...stderr];
	}
}
