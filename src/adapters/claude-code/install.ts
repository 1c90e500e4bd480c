/**
 * Claude Code's part of the family's installer (`command-hook/install.ts`):
 * where its settings live, what one hook entry looks like (the watcher's
 * `asyncRewake`), its todo tools, and its words.
 *
 * - project: `<cwd>/.claude/settings.json` (committed, shared with the team)
 * - local:   `<cwd>/.claude/settings.local.json` (just you, this project)
 * - user:    `~/.claude/settings.json`, or `$CLAUDE_CONFIG_DIR/settings.json`
 *
 * `<cwd>` is where the command runs: run it where you start Claude Code. The
 * project file gets the portable commands (`hook-config.ts`) and links this
 * copy of boulder for this user (`$XDG_DATA_HOME/boulder/claude-code-hook.cjs`),
 * unless the project has its own devDependency, which the commands prefer.
 * Local and user settings pin this node and this copy's hook program.
 *
 * `--todo-tools` also sets `CLAUDE_CODE_ENABLE_TODO_TOOLS=1` in the same
 * file's `env` (`todo-tools.ts`); every install says where they stand.
 */
import os from "node:os";
import path from "node:path";
import * as family from "../command-hook/install.js";
import { packageRoot } from "../shared/config-file.js";
import { isPortable } from "../shared/hook-form.js";
import { hookLinkFile as linkFileOf, hookLinkText as linkTextOf } from "../shared/hook-link.js";
import { plainValue } from "../shared/settings-json.js";
import { HOOK_BUNDLE, HOOK_LINK, hookEntryOf, LINK, REGISTRATIONS, SPELLING } from "./hook-config.js";
import { HARNESS } from "./hook-input.js";
import { INSTALL_TEXT, TODO_TOOLS_TEXT } from "./messages.js";
import { settingsTurnOn, TODO_TOOLS_VARIABLE, turnsOn, withTodoTools } from "./todo-tools.js";

/** Where its settings are: the project's (committed), this project's for you alone, the user's. */
const WHERE = {
	project: ({ cwd }: family.Place) => path.join(cwd, ".claude", "settings.json"),
	local: ({ cwd }: family.Place) => path.join(cwd, ".claude", "settings.local.json"),
	user: ({ env }: family.Place) => path.join(claudeConfigDir(env), "settings.json"),
};
export type InstallScope = keyof typeof WHERE;
export const INSTALL_SCOPES = Object.keys(WHERE) as InstallScope[];
export const settingsFile = (scope: InstallScope, place: family.Place): string => WHERE[scope](place);

/** `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
	return env.CLAUDE_CONFIG_DIR || path.join(env.HOME || os.homedir(), ".claude");
}

export const install: family.HooksInstall = {
	harness: HARNESS,
	where: WHERE,
	registrations: REGISTRATIONS,
	command: SPELLING,
	entry: hookEntryOf,
	text: INSTALL_TEXT,
	notes: ({ form, link, root, options }) => [
		isPortable(form) ? INSTALL_TEXT.portable(link, root) : INSTALL_TEXT.pinned(form.node, form.bundle, options.scope),
	],
	async alsoEdit(text, file, options) {
		const todo = options.todoTools ? withTodoTools(text, file) : { text, changed: false };
		return { ...todo, remarks: [todoToolsNote(options, file, todo.text, todo.changed)] };
	},
};

/** What the install says about the todo tools: what it set, or that they are off and how to turn them on. Never silent. */
function todoToolsNote(options: family.InstallOptions, file: string, text: string, changed: boolean): string {
	if (options.todoTools) return changed ? TODO_TOOLS_TEXT.set(file) : TODO_TOOLS_TEXT.alreadySet(file);
	const inShell = turnsOn(options.env[TODO_TOOLS_VARIABLE]);
	if (inShell || settingsTurnOn(plainValue(parseSettings(text, file)))) {
		return TODO_TOOLS_TEXT.alreadySet(inShell ? "this shell" : file);
	}
	return TODO_TOOLS_TEXT.offer(options.scope);
}

/** The form a scope gets: portable for the committed project file, pinned for the files that stay on this machine. */
export const formFor = (scope: InstallScope, root: string = packageRoot()) => family.formFor(scope, root, HOOK_BUNDLE);
export const hookLinkFile = (env: NodeJS.ProcessEnv) => linkFileOf(env, HOOK_LINK);
export const hookLinkText = (bundle: string) => linkTextOf(bundle, LINK);
export { hookLinkTarget, projectPackage } from "../shared/hook-link.js";
export type { SettingsEditResult } from "../shared/hooks-file.js";
export type { InstallReport } from "../shared/install-report.js";
export type InstallOptions = family.InstallOptions;

export const {
	install: installClaudeCodeWithNotes,
	uninstall: uninstallClaudeCode,
	withOurHooks,
	withoutOurHooks,
	ourEntries,
	parseSettings,
	hooksObject,
} = family.installerOf(install);
export const installClaudeCode = async (options: family.InstallOptions) =>
	(await installClaudeCodeWithNotes(options)).report;
