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
import { type HookForm, isPortable } from "../shared/hook-form.js";
import { hookLinkFile as linkFileOf, hookLinkText as linkTextOf } from "../shared/hook-link.js";
import * as hooksFile from "../shared/hooks-file.js";
import { plainValue } from "../shared/settings-json.js";
import { HOOK_BUNDLE, HOOK_LINK, hookEntryOf, LINK, REGISTRATIONS, SPELLING } from "./hook-config.js";
import { HARNESS } from "./hook-input.js";
import { INSTALL_TEXT, TODO_TOOLS_TEXT } from "./messages.js";
import { settingsTurnOn, TODO_TOOLS_VARIABLE, turnsOn, withTodoTools } from "./todo-tools.js";

export const INSTALL_SCOPES = ["project", "local", "user"] as const;
export type InstallScope = (typeof INSTALL_SCOPES)[number];

export function settingsFile(scope: InstallScope, place: family.Place): string {
	if (scope === "user") return path.join(claudeConfigDir(place.env), "settings.json");
	return path.join(place.cwd, ".claude", scope === "project" ? "settings.json" : "settings.local.json");
}

/** `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
	return env.CLAUDE_CONFIG_DIR || path.join(env.HOME || os.homedir(), ".claude");
}

export const install: family.HooksInstall = {
	harness: HARNESS,
	title: "Claude Code",
	scopes: INSTALL_SCOPES,
	files: (scope, place) => [settingsFile(scope as InstallScope, place)],
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

export const installClaudeCodeWithNotes = (options: family.InstallOptions) => family.installHooks(install, options);
export const installClaudeCode = async (options: family.InstallOptions) =>
	(await installClaudeCodeWithNotes(options)).report;
export const uninstallClaudeCode = (options: family.InstallOptions) => family.uninstallHooks(install, options);
/** Pure: the settings text with exactly boulder's hooks for `form`; the same bytes when they are there already. */
export const withOurHooks = (text: string, file: string, form: HookForm) =>
	family.withOurHooks(install, text, file, form);
/** Pure: the settings text without boulder's hook entries; everything else byte for byte. */
export const withoutOurHooks = (text: string, file: string) => family.withoutOurHooks(install, text, file);
/** Our entries, read back from a settings value: one per command of ours, with its event, word and form. */
export const ourEntries = (settings: unknown) => hooksFile.ourEntries(family.hooksDialect(install), settings);
/** Parses settings text (a byte order mark allowed) into its tree. Contract: throws `BoulderError("settings-invalid")`. */
export const parseSettings = (text: string, file: string) =>
	hooksFile.parseSettings(family.hooksDialect(install), text, file);
/** Every event's groups: the value of a settings file's `hooks` (and of the plugins' `hooks/hooks.json`). */
export const hooksObject = (form: HookForm) => hooksFile.hooksObject(family.hooksDialect(install), form);
