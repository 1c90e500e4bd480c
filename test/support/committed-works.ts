/**
 * The `.boulder/works.json` a cloned repository commits, for the tests of trust
 * for project state: one active work `build` on `plan.md` with
 * `"worktree": "."` and the verify commands given. `overrides` replace fields
 * of that work.
 */
export function committedWorks(overrides: { verify: readonly string[] } & Record<string, unknown>) {
	const { verify, ...rest } = overrides;
	return {
		schemaVersion: 2,
		activeWorkId: "build",
		stopped: null,
		works: {
			build: {
				id: "build",
				planPath: "plan.md",
				name: "Build",
				status: "active",
				startedAt: 1_700_000_000_000,
				endedAt: null,
				elapsedMs: null,
				sessions: [],
				agent: null,
				worktree: ".",
				subagentSessions: {},
				verify,
				verifyTimeoutMs: null,
				lastVerification: null,
				...rest,
			},
		},
	};
}
