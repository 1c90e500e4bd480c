/**
 * A failure an adapter meets before the engine could open (unreadable hook
 * input, a broken config, a missing project folder): logged in the worktree's
 * decision log when boulder already keeps state there, so `boulder why` can
 * tell it (a folder that is no project keeps its log under the user's state
 * folder); otherwise (a state folder not made yet)
 * handed back for the adapter's stderr. Never creates boulder's folder.
 */
import { existsSync } from "node:fs";
import type { Clock } from "../core/clock.js";
import { systemClock } from "../state/store.js";
import { logEvent } from "./event-log.js";
import { findProject, projectStore } from "./worktree.js";

export interface EarlyProblem {
	/** The folder the harness said the session works in. */
	folder: string;
	harness: string;
	session: string | null;
	/** Where it happened and what: "claude-code Stop hook: the input is not JSON". */
	message: string;
	/** `config-invalid` for a bad config (the user must hear it where they are), else `error`. */
	reason?: "error" | "config-invalid";
	/** Where the user's state folder is found (a folder that is no project keeps its log there); defaults to `process.env`. */
	env?: NodeJS.ProcessEnv;
}

export interface EarlyRecord {
	/** Lines the caller should still write to its stderr: none when the problem is in the decision log. */
	stderr: string[];
	/**
	 * The same problem is the newest line of the decision log already: it was
	 * recorded (and, for a bad config, told) on an earlier event and nothing
	 * happened since, so it is not logged again and need not be told again.
	 */
	repeated: boolean;
}

/** Contract: never throws. */
export async function recordEarlyProblem(problem: EarlyProblem, clock: Clock = systemClock): Promise<EarlyRecord> {
	const stderr = [`boulder: ${problem.message}`];
	const reason = problem.reason ?? "error";
	try {
		const project = existsSync(problem.folder) ? findProject(problem.folder) : null;
		if (project === null) return { stderr, repeated: false };
		const store = projectStore(project, problem.env ?? process.env, { clock });
		if (!existsSync(store.dir)) return { stderr, repeated: false };
		const [last] = await store.readDecisions({ limit: 1 });
		if (reason === "config-invalid" && last?.reason === reason && last.detail === problem.message) {
			return { stderr: [], repeated: true };
		}
		const warning = await logEvent(store, clock, {
			reason,
			detail: problem.message,
			harness: problem.harness,
			session: problem.session,
		});
		const told = warning ? [`boulder: could not record an error in the decision log: ${warning}`, ...stderr] : [];
		return { stderr: told, repeated: false };
	} catch (error) {
		const why = error instanceof Error ? error.message : String(error);
		return { stderr: [`boulder: could not record an error in the decision log: ${why}`, ...stderr], repeated: false };
	}
}
