/**
 * What the Copilot CLI adapter says to people: the installer's and doctor's
 * messages. Copilot's agentStop has no channel for a notice to the user, so
 * there are no hook notices here; the nudges themselves are the core's prompts.
 */

/** Why a nudge was not sent: Copilot ends the turn by itself after this many agentStop blocks in a row. */
export function capReached(cap: number): string {
	return `Copilot CLI ends a turn after ${cap} stop-hook continuations in a row and would not deliver another (its own cap, which no setting lifts); your next message starts a fresh run`;
}

export const INSTALL_TEXT = {
	notJson: (file: string, problem: string) =>
		`${file} is not valid JSON (${problem}); boulder did not touch it. Fix the file (or move it away) and run the command again.`,
	notOurs: (file: string) =>
		`${file} holds hooks that are not boulder's; boulder did not touch it. Rename it (Copilot reads every *.json in that folder) and run the command again.`,
	noBundle: (file: string) =>
		`the hook program ${file} is missing: this copy of boulder was not built (\`npm run build\`) or is damaged. Reinstall boulder-agent.`,
	installed: (file: string, events: number) => `Installed boulder's Copilot CLI hooks (${events} events) in ${file}.`,
	updated: (file: string) => `Updated boulder's Copilot CLI hooks in ${file}.`,
	unchanged: (file: string) => `boulder's Copilot CLI hooks are already installed in ${file}; nothing changed.`,
	backup: (file: string) => `The previous file is kept as ${file}.`,
	removed: (file: string, entries: number) =>
		`Removed boulder's Copilot CLI hooks (${entries} entries): ${file} is gone.`,
	notInstalled: (file: string) => `boulder's Copilot CLI hooks are not in ${file}; nothing changed.`,
	restart:
		"Copilot CLI reads hooks when a session starts: restart running sessions to pick them up. In prompt mode (-p) it runs a project's hooks only with --trust-folder; your user hooks always run.",
	portable: (link: string | null, root: string) =>
		`The hooks name no path of this machine: they run the project's own boulder-agent (devDependency), else the one linked for you${
			link ? ` (${link} → ${root})` : ""
		}, else boulder-hook on the PATH (a global install). Teammates without boulder-agent get hooks that do nothing.`,
	pinned: (node: string, bundle: string) =>
		`The hooks run ${node} ${bundle}: pinned to this machine. If node or this copy of boulder moves, run this command again; \`boulder doctor\` notices.`,
	autopilot:
		"Do not also run Copilot's own --autopilot (or /autopilot) in these sessions: two continuation loops would nudge the same agent.",
} as const;

export const DOCTOR_TEXT = {
	notInstalled: "boulder's Copilot CLI hooks are not in this project's .github/hooks or your user hooks folder",
	installFix: "`boulder install copilot` adds them, if you use Copilot CLI here",
	unreadable: (file: string, problem: string) =>
		`${file} cannot be read as boulder's hooks file (${problem}); Copilot will not run boulder from it`,
	unreadableFix: "fix the file, or move it away and run `boulder install copilot` again",
	twice: (places: string[]) =>
		`boulder runs from more than one place in Copilot CLI (${places.join(", ")}): every event runs boulder more than once`,
	programGone: (file: string, program: string) =>
		`the hooks in ${file} run ${program}, which does not exist (moved or removed): they fail and boulder does nothing`,
	otherVersion: (file: string, installed: string, where: string, version: string) =>
		`the hooks in ${file} run boulder ${installed} (${where}); this is ${version}: two versions would share one state folder`,
	missingEvents: (file: string, events: string[]) => `the hooks in ${file} miss ${events.join(", ")}`,
	pinnedOk: (file: string, version: string, events: number) =>
		`hooks installed in ${file} (pinned to boulder ${version}, ${events} events; Copilot stops continuing after 8 blocks in a row)`,
	portableOk: (file: string, version: string, where: string) =>
		`hooks installed in ${file} (portable: here they run boulder ${version}, ${where}; Copilot stops continuing after 8 blocks in a row)`,
	noneFound: (file: string) =>
		`the hooks in ${file} find no installed boulder here (no devDependency, no link, no boulder-hook on the PATH): they do nothing`,
	linkGone: (link: string, target: string) =>
		`${link} points at ${target}, which does not exist (moved or removed): the hooks fall back to boulder-hook on the PATH`,
} as const;
