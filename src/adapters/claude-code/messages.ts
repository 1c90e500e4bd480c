/**
 * What the Claude Code adapter says to people: the one-line notices shown in
 * Claude Code (`systemMessage`, never sent to the model) and the installer's
 * messages. The nudges themselves are the core's prompts.
 */

import { hooksDoctorText, hooksInstallText, portableHooksNote } from "../shared/install-messages.js";

export { configNotice, limitNotice } from "../shared/hook-messages.js";

/** Why boulder waits after the user ran one of its read-only slash commands. */
export function lookingAtBoulder(command: string): string {
	return `the user ran /boulder:${command} to look at boulder itself; waiting for their next message`;
}

/**
 * What the portable hooks print at session start where no boulder is installed
 * (a teammate without it): one line, shown to the user, never to the model.
 * It is written into settings files inside a single-quoted shell word, so it
 * holds no single quote.
 */
export const NOT_INSTALLED_NOTICE =
	"boulder: this project runs boulder from its Claude Code hooks, but boulder is not installed here (npm install -g boulder-agent, or add it to the project devDependencies); carrying on without it.";

/** What the user's hook link prints at session start when the copy of boulder it ran is gone. */
export const LINK_GONE_NOTICE =
	"boulder: the copy of boulder these Claude Code hooks ran was moved or removed; run `boulder install claude-code --project` with the boulder you have now (or `boulder doctor`). Carrying on without it.";

export const INSTALL_TEXT = {
	...hooksInstallText("Claude Code"),
	portable: (link: string | null, root: string) =>
		portableHooksNote({ onPath: "boulder-claude-code-hook", linked: { link, root }, notice: true }),
};

/** What `boulder doctor` says about Claude Code installs. */
export const DOCTOR_TEXT = {
	...hooksDoctorText("Claude Code"),
	notInstalled:
		"boulder's Claude Code hooks are not in this project's or your user settings, and its plugin is not enabled",
	installFix: "`boulder install claude-code` adds them, if you use Claude Code here",
	unreadable: (file: string, problem: string) =>
		`${file} cannot be read as JSON (${problem}); Claude Code will not run its hooks either`,
	otherVersion: (file: string, installed: string, version: string, where: string) =>
		`the hooks in ${file} run boulder ${installed} (${where}); this is ${version}: two versions would share one state folder`,
	pinnedOk: (file: string, scope: string, version: string, count: number) =>
		`hooks installed in ${file} (${scope}, pinned to boulder ${version}, ${count} entries)`,
	portableOk: (file: string, version: string, where: string) =>
		`hooks installed in ${file} (portable: here they run boulder ${version}, ${where})`,
	noneFound: (file: string) =>
		`the hooks in ${file} find no installed boulder here (no devDependency, no link, nothing on the PATH): they print a notice at session start and do nothing else`,
	linkGone: (link: string, target: string) =>
		`${link} points at ${target}, which does not exist (moved or removed): the hooks fall back to a boulder on the PATH`,
	pluginGone: (id: string, folder: string) =>
		`Claude Code's plugin ${id} is enabled, but its folder ${folder} is gone: its hooks and /boulder commands fail`,
	pluginVersion: (id: string, installed: string, version: string) =>
		`Claude Code's plugin ${id} is version ${installed}; this boulder is ${version}`,
	pluginOk: (id: string, where: string) => `Claude Code's plugin ${id} is enabled (${where})`,
};

/** What the installer and `boulder doctor` say about Claude Code's todo tools (`todo-tools.ts`). */
export const TODO_TOOLS_TEXT = {
	flagHelp:
		"also set CLAUDE_CODE_ENABLE_TODO_TOOLS=1 in the settings' env: Claude Code 2.1.233 and later offer their newest models no todo list without it, and boulder follows the agent's list",
	set: (file: string) =>
		`Set CLAUDE_CODE_ENABLE_TODO_TOOLS=1 in the env of ${file}: Claude Code offers the agent its todo tools (TaskCreate, TaskUpdate, ...), which boulder follows. \`boulder uninstall\` leaves it; remove it from "env" by hand to undo.`,
	alreadySet: (file: string) => `CLAUDE_CODE_ENABLE_TODO_TOOLS=1 is already set in the env of ${file}.`,
	offer: (scope: string) =>
		`Claude Code 2.1.233 and later offer their newest models no todo tools, so the agent keeps no list boulder can follow. To turn them on, run \`boulder install claude-code --${scope} --todo-tools\` (it sets CLAUDE_CODE_ENABLE_TODO_TOOLS=1 in the settings' env), or give boulder a plan: \`boulder start PLAN.md\`.`,
	doctorOff: (version: string | null) =>
		`no settings file and no environment sets CLAUDE_CODE_ENABLE_TODO_TOOLS=1${version ? ` (Claude Code ${version} is installed)` : ""}: Claude Code 2.1.233 and later offer their newest models no todo tools, so boulder can follow only a plan (\`boulder start PLAN.md\`)`,
	doctorFix: (scope: string) => `\`boulder install claude-code --${scope} --todo-tools\``,
};
