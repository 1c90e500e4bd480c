/**
 * What the Qwen Code adapter says to people: why it waits, why a nudge was
 * not sent, and the installer's and doctor's words. The nudges themselves
 * are the core's prompts.
 */

/** Why boulder waits in Qwen Code's plan mode. */
export const planModeWait = "Qwen Code is in plan mode: the agent proposes and waits for the user to approve";

/** Why a nudge was not sent: Qwen Code would have overridden it. */
export function capReached(cap: number): string {
	return `Qwen Code ends a prompt's run after ${cap} Stop-hook blocks in a row (stopHookBlockingCap, at most 100; QWEN_CODE_STOP_HOOK_BLOCK_CAP); send a message to go on`;
}

export const INSTALL_TEXT = {
	notJson: (file: string, problem: string) =>
		`${file} is not valid JSON (${problem}); boulder did not touch it. Fix the file (or move it away) and run the command again.`,
	notObject: (file: string, what: string) =>
		`${file} holds ${what} where Qwen Code expects a settings object; boulder did not touch it.`,
	hooksNotObject: (file: string) =>
		`"hooks" in ${file} is not an object; boulder did not touch the file. Fix it by hand and run the command again.`,
	eventNotList: (file: string, event: string) =>
		`"hooks.${event}" in ${file} is not a list; boulder did not touch the file. Fix it by hand and run the command again.`,
	noBundle: (file: string) =>
		`the hook program ${file} is missing: this copy of boulder was not built (\`npm run build\`) or is damaged. Reinstall boulder-agent.`,
	installed: (file: string, events: number) => `Installed boulder's Qwen Code hooks (${events} events) in ${file}.`,
	updated: (file: string) => `Updated boulder's Qwen Code hooks in ${file}.`,
	unchanged: (file: string) => `boulder's Qwen Code hooks are already installed in ${file}; nothing changed.`,
	backup: (file: string) => `The previous file is kept as ${file}.`,
	removed: (file: string, entries: number) => `Removed boulder's Qwen Code hooks (${entries} entries) from ${file}.`,
	notInstalled: (file: string) => `boulder's Qwen Code hooks are not in ${file}; nothing changed.`,
	restart: "Qwen Code reads hooks when a session starts: restart running sessions to pick them up.",
	portable:
		"The hooks name no path of this machine: they run the project's own boulder-agent (devDependency), else boulder-hook on the PATH (a global install). Teammates without either run Qwen Code as if boulder were not there.",
	pinned: (node: string, bundle: string) =>
		`The hooks run ${node} ${bundle}: pinned to this machine. If node or this copy of boulder moves, run this command again; \`boulder doctor\` notices.`,
	cap: 'Qwen Code honours 7 continuations per prompt unless told otherwise: set "stopHookBlockingCap": 100 in its settings (or QWEN_CODE_STOP_HOOK_BLOCK_CAP=100) so a long list can finish; boulder\'s own budgets still bound every run.',
} as const;

/** What `boulder doctor` says about Qwen Code installs. */
export const DOCTOR_TEXT = {
	notInstalled: "boulder's Qwen Code hooks are not in this project's or your user settings",
	installFix: "`boulder install qwen` adds them, if you use Qwen Code here",
	unreadable: (file: string, problem: string) =>
		`${file} cannot be read as JSON (${problem}); boulder cannot tell whether its hooks are there`,
	unreadableFix: "fix the file, or move it away",
	twice: (places: string[]) =>
		`boulder runs from more than one place in Qwen Code (${places.join(", ")}): every event runs boulder more than once`,
	programGone: (file: string, program: string) =>
		`the hooks in ${file} run ${program}, which does not exist (moved or removed): they fail and boulder does nothing`,
	otherVersion: (file: string, installed: string, version: string) =>
		`the hooks in ${file} run boulder ${installed}; this is ${version}: two versions would share one state folder`,
	missingEvents: (file: string, events: string[]) => `the hooks in ${file} miss ${events.join(", ")}`,
	ok: (file: string, form: string, events: number) => `hooks installed in ${file} (${form}, ${events} events)`,
	noneFound: (file: string) =>
		`the portable hooks in ${file} find no boulder here (no devDependency, no boulder-hook on the PATH): they do nothing`,
	lowCap: (cap: number) =>
		`Qwen Code ends a prompt's run after ${cap - 1} continuations (stopHookBlockingCap ${cap}): a long list stops there and waits for your next message`,
	lowCapFix:
		'set "stopHookBlockingCap": 100 in ~/.qwen/settings.json or the project\'s .qwen/settings.json (or QWEN_CODE_STOP_HOOK_BLOCK_CAP=100)',
	capOk: (cap: number) => `Qwen Code honours ${cap - 1} continuations per prompt (stopHookBlockingCap ${cap})`,
} as const;
