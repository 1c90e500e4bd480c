/**
 * What the Gemini CLI adapter says to people: why boulder waits in plan mode,
 * the installer's messages and the doctor's. The notices shown in Gemini CLI
 * (`systemMessage`, never sent to the model) are every command-hook
 * harness's (`shared/hook-messages.ts`); the nudges are the core's prompts.
 */

/** Why boulder waits while the agent is in plan mode. */
export const PLAN_MODE_WAIT = "the agent is in plan mode: its plan waits for the user's approval";

export const INSTALL_TEXT = {
	notJson: (file: string, problem: string) =>
		`${file} is not valid JSON (${problem}); boulder did not touch it. Fix the file (or move it away) and run the command again.`,
	notObject: (file: string, what: string) =>
		`${file} holds ${what} where Gemini CLI expects a settings object; boulder did not touch it.`,
	hooksNotObject: (file: string) =>
		`${file} has a "hooks" that is not an object; boulder did not touch it. Fix it (or move the file away) and run the command again.`,
	eventNotList: (file: string, event: string) =>
		`${file} has a "hooks.${event}" that is not a list; boulder did not touch it. Fix it (or move the file away) and run the command again.`,
	noBundle: (bundle: string) =>
		`boulder's hook program ${bundle} is missing: this copy of boulder is not built (run \`npm run build\` in it) or is damaged.`,
	installed: (file: string, entries: number) => `Installed boulder's Gemini CLI hooks (${entries} events) in ${file}.`,
	updated: (file: string) => `Updated boulder's Gemini CLI hooks in ${file}.`,
	unchanged: (file: string) => `boulder's Gemini CLI hooks are already installed in ${file}; nothing changed.`,
	backup: (file: string) => `The previous file is kept as ${file}.`,
	removed: (file: string, entries: number) => `Removed boulder's Gemini CLI hooks (${entries} entries) from ${file}.`,
	notInstalled: (file: string) => `boulder's Gemini CLI hooks are not in ${file}; nothing changed.`,
	restart: "Gemini CLI reads hooks when it starts: restart running sessions to pick them up.",
	portable: (link: string | null, root: string) =>
		`The hooks name no path of this machine: they run the project's own boulder-agent (devDependency), else the one linked for you${
			link ? ` (${link} → ${root})` : ""
		}, else boulder-hook on the PATH (a global install). Teammates need boulder-agent installed; without it their hooks do nothing.`,
	pinned: (node: string, bundle: string) =>
		`The hooks run ${node} ${bundle}: pinned to this machine. If node or this copy of boulder moves, run this command again; \`boulder doctor\` notices.`,
} as const;

/** What `boulder doctor` says about Gemini CLI installs. */
export const DOCTOR_TEXT = {
	notInstalled: "boulder's Gemini CLI hooks are not in this project's or your user settings",
	installFix: "`boulder install gemini` adds them, if you use Gemini CLI here",
	unreadable: (file: string, problem: string) =>
		`${file} cannot be read as JSON (${problem}); Gemini CLI will not read its settings either`,
	unreadableFix: "fix the file, or move it away",
	twice: (files: string[]) =>
		`boulder's Gemini CLI hooks are in more than one settings file (${files.join(", ")}): every event runs boulder more than once`,
	twiceFix: "`boulder uninstall gemini --user` or `--project` removes one set",
	programGone: (file: string, program: string) =>
		`the hooks in ${file} run ${program}, which does not exist (moved or removed): they fail and boulder does nothing`,
	otherVersion: (file: string, installed: string, version: string) =>
		`the hooks in ${file} run boulder ${installed}; this is ${version}: two versions would share one state folder`,
	missingEvents: (file: string, events: string[]) => `the hooks in ${file} miss ${events.join(", ")}`,
	reinstall: (scope: string) => `\`boulder install gemini --${scope}\` puts them right`,
	pinnedOk: (file: string, version: string, events: number) =>
		`hooks installed in ${file} (pinned to boulder ${version}, ${events} events); Gemini CLI continues a turn at most 100 times in a row`,
	portableOk: (file: string, where: string) =>
		`hooks installed in ${file} (portable: here they run ${where}); Gemini CLI continues a turn at most 100 times in a row`,
	noneFound: (file: string) =>
		`the hooks in ${file} find no installed boulder here (no devDependency, no link, nothing on the PATH): they do nothing`,
	hooksOff: (file: string) => `${file} turns Gemini CLI's hooks off (hooksConfig.enabled: false): boulder never runs`,
	hooksOffFix: 'set "hooksConfig": {"enabled": true} there, or remove the key',
} as const;
