/**
 * What the Claude Code adapter says to people: the one-line notices shown in
 * Claude Code (`systemMessage`, never sent to the model) and the installer's
 * messages. The nudges themselves are the core's prompts.
 */

/** Shown when boulder lets the agent stop because a limit was reached: the user should know it was not "done". */
export function limitNotice(detail: string): string {
	return `boulder: not continuing — ${detail}. \`boulder why\` explains; your next message starts afresh.`;
}

/** Shown once when boulder's config turned bad: boulder is off until it is fixed. */
export function configNotice(problem: string): string {
	return `boulder: not continuing anything until its config is fixed — ${problem}. \`boulder doctor\` explains.`;
}

/** Why boulder waits after the user ran one of its read-only slash commands. */
export function lookingAtBoulder(command: string): string {
	return `the user ran /boulder:${command} to look at boulder itself; waiting for their next message`;
}

export const INSTALL_TEXT = {
	notJson: (file: string, problem: string) =>
		`${file} is not valid JSON (${problem}); boulder did not touch it. Fix the file (or move it away) and run the command again.`,
	notObject: (file: string, what: string) =>
		`${file} holds ${what} where Claude Code expects a settings object; boulder did not touch it.`,
	hooksNotObject: (file: string) =>
		`"hooks" in ${file} is not an object; boulder did not touch the file. Fix it by hand and run the command again.`,
	eventNotList: (file: string, event: string) =>
		`"hooks.${event}" in ${file} is not a list; boulder did not touch the file. Fix it by hand and run the command again.`,
	noBundle: (file: string) =>
		`the hook program ${file} is missing: this copy of boulder was not built (\`npm run build\`) or is damaged. Reinstall boulder-agent.`,
	installed: (file: string, events: number) => `Installed boulder's Claude Code hooks (${events} events) in ${file}.`,
	updated: (file: string) => `Updated boulder's Claude Code hooks in ${file}.`,
	unchanged: (file: string) => `boulder's Claude Code hooks are already installed in ${file}; nothing changed.`,
	backup: (file: string) => `The previous file is kept as ${file}.`,
	removed: (file: string, entries: number) => `Removed boulder's Claude Code hooks (${entries} entries) from ${file}.`,
	notInstalled: (file: string) => `boulder's Claude Code hooks are not in ${file}; nothing changed.`,
	restart: "Claude Code reads hooks when a session starts: restart running sessions to pick them up.",
} as const;
