/** The CLI's exit codes: scripts and CI read them. */
export const EXIT = {
	ok: 0,
	/** Something is wrong (a missing plan, a bad state file, `doctor` found a problem). */
	failure: 1,
	/** The command line itself is wrong: unknown command or option, missing argument. */
	usage: 2,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
