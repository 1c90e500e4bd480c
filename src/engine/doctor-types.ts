/**
 * The doctor's extension point: a check looks at one thing and says what it
 * found. boulder's own checks (state, config) and each adapter's (hooks
 * installed, version matches) fill the same contract.
 */
import type { FileStore } from "../state/file-store.js";

export interface DoctorContext {
	worktree: string;
	store: FileStore;
	env: NodeJS.ProcessEnv;
	cwd: string;
	now: number;
}

export type FindingLevel = "ok" | "warn" | "problem";

export interface DoctorFinding {
	/** The check's name: "state", "config", "claude-code", … */
	check: string;
	level: FindingLevel;
	/** What is so, or exactly what is wrong. */
	message: string;
	/** How to fix it; null when there is nothing to do. */
	fix: string | null;
	/** The file the finding is about, when there is one. */
	file?: string;
	/** The config key, for config findings. */
	key?: string;
}

export interface DoctorCheck {
	name: string;
	/** Contract: reports what it finds; throws only for its own bugs (reported as a problem of the check). */
	run(context: DoctorContext): Promise<DoctorFinding[]>;
}
