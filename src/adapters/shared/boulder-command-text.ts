/**
 * What `/boulder` answers inside a harness (OpenCode, pi): the words of
 * `boulder-command.ts`, kept as text to read and review.
 */

export const ANSWER = {
	stopped:
		"boulder: stopped for this session — no automatic continuation here until `/boulder go`. This holds across restarts.",
	stoppedAlready: "boulder: already stopped for this session; `/boulder go` turns it back on.",
	resumed: (worktreeToo: boolean) =>
		`boulder: on again for this session${worktreeToo ? " (and the worktree-wide `boulder stop` is lifted)" : ""}.`,
	usage: [
		"boulder: /boulder status | stop | go | why",
		"  status  the works of this worktree and this session's state",
		"  stop    no automatic continuation in this session until /boulder go (holds across restarts)",
		"  go      turn it back on",
		"  why     the last decisions for this session, in plain words",
	].join("\n"),
	unknown: (word: string) => `boulder: no subcommand "${word}".`,
	sessionLine: (stoppedBy: string | null) =>
		stoppedBy ? `This session: stopped (by ${stoppedBy}).` : "This session: continuation on.",
	failed: (message: string) => `boulder: could not do that: ${message}`,
} as const;
