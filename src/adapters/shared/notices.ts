/**
 * The one-line notices every harness shows its user (never its model) when
 * boulder lets the agent stop for a reason the user should hear.
 */

/** Shown when boulder lets the agent stop because a limit was reached: the user should know it was not "done". */
export function limitNotice(detail: string): string {
	return `boulder: not continuing — ${detail}. \`boulder why\` explains; your next message starts afresh.`;
}

/** Shown once when boulder's config turned bad: boulder is off until it is fixed. */
export function configNotice(problem: string): string {
	return `boulder: not continuing anything until its config is fixed — ${problem}. \`boulder doctor\` explains.`;
}
