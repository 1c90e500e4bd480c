/**
 * `boulder install claude-code` / `boulder uninstall claude-code`: boulder's
 * hooks merged into (or taken out of) one of Claude Code's settings files.
 *
 * - project: `<cwd>/.claude/settings.json` (committed, shared with the team)
 * - local:   `<cwd>/.claude/settings.local.json` (just you, this project)
 * - user:    `~/.claude/settings.json`, or `$CLAUDE_CONFIG_DIR/settings.json`
 *
 * `<cwd>` is where the command runs: run it where you start Claude Code.
 *
 * The project file is committed, so it gets the portable commands
 * (`hook-config.ts`): no path of this machine, whichever boulder a teammate
 * has installed. Installing them also links this copy of boulder for this
 * user (`$XDG_DATA_HOME/boulder/claude-code-hook.cjs`), unless the project
 * has its own devDependency, which the commands prefer. Local and user
 * settings stay on this machine and pin this node and this copy's hook
 * program by absolute path, which needs nothing on the PATH.
 *
 * The file is edited in place (`settings-json.ts`): the user's other settings
 * and hooks keep every byte. boulder's entries are recognised by the marker
 * in their command, so uninstall removes exactly those, and installing again
 * replaces them (a newer boulder, a moved package, the other form) rather
 * than adding a second set. Nothing is written when nothing changes;
 * otherwise the old file is first copied to the user's state folder
 * (`config-file.ts`). A file the installer created goes again at uninstall
 * when nothing else was put in it. A file that is not valid JSON is refused,
 * never rewritten.
 */
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BoulderError } from "../../core/errors.js";
import {
	packageRoot,
	packageVersion,
	readConfigText,
	sameJson,
	writeConfigText,
	writeOrRemoveConfig,
} from "../shared/config-file.js";
import {
	type HookLink,
	linkForUser,
	hookLinkFile as sharedHookLinkFile,
	hookLinkText as sharedHookLinkText,
} from "../shared/hook-link.js";
import {
	type HooksDialect,
	ourEntries as ourEntriesOf,
	parseSettings as parseSettingsOf,
	type SettingsEditResult,
	withOurHooks as withOurHooksOf,
	withoutOurHooks as withoutOurHooksOf,
} from "../shared/hooks-file.js";
import type { InstallReport } from "../shared/install-report.js";
import { plainValue } from "../shared/settings-json.js";
import {
	HOOK_BUNDLE,
	HOOK_LINK,
	type HookForm,
	type HookProgram,
	type HookRegistration,
	isPortable,
	matcherGroup,
	type OurCommand,
	PORTABLE,
	parseOurCommand,
	REGISTRATIONS,
} from "./hook-config.js";
import { INSTALL_TEXT, LINK_GONE_NOTICE, TODO_TOOLS_TEXT } from "./messages.js";
import { settingsTurnOn, TODO_TOOLS_VARIABLE, turnsOn, withTodoTools } from "./todo-tools.js";

export const INSTALL_SCOPES = ["project", "local", "user"] as const;
export type InstallScope = (typeof INSTALL_SCOPES)[number];

export interface Place {
	cwd: string;
	env: NodeJS.ProcessEnv;
}

export function settingsFile(scope: InstallScope, place: Place): string {
	if (scope === "user") return path.join(claudeConfigDir(place.env), "settings.json");
	return path.join(place.cwd, ".claude", scope === "project" ? "settings.json" : "settings.local.json");
}

/** `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
	return env.CLAUDE_CONFIG_DIR || path.join(env.HOME || os.homedir(), ".claude");
}

/** The hook program as installed from this copy of boulder: this node, the bundled hook, this version. */
export function thisProgram(root: string = packageRoot()): HookProgram {
	return { node: process.execPath, bundle: path.join(root, HOOK_BUNDLE), version: packageVersion(root) };
}

/** The form a scope gets: portable for the committed project file, pinned for the files that stay on this machine. */
export function formFor(scope: InstallScope, root: string = packageRoot()): HookForm {
	return scope === "project" ? PORTABLE : thisProgram(root);
}

/** The per-user link the portable commands look for (`shared/hook-link.ts`). */
const LINK: HookLink = {
	link: HOOK_LINK,
	bundle: HOOK_BUNDLE,
	writtenBy: "Written by `boulder install claude-code`: Claude Code's portable hooks run the boulder at this path.",
	notice: { event: "SessionStart", output: JSON.stringify({ systemMessage: LINK_GONE_NOTICE }) },
};

export function hookLinkFile(env: NodeJS.ProcessEnv): string {
	return sharedHookLinkFile(env, HOOK_LINK);
}

export function hookLinkText(bundle: string): string {
	return sharedHookLinkText(bundle, LINK);
}

export { hookLinkTarget, projectPackage } from "../shared/hook-link.js";

export interface InstallOptions extends Place {
	scope: InstallScope;
	/** The form to write; defaults to the scope's (`formFor`). */
	program?: HookForm;
	/** The copy of boulder the user link points at; defaults to this one. */
	root?: string;
	/** Also set `CLAUDE_CODE_ENABLE_TODO_TOOLS=1` in the settings' `env` (`--todo-tools`). */
	todoTools?: boolean;
	now?: () => Date;
}

export interface ClaudeInstallResult {
	report: InstallReport;
	/** What the user should know about the form written (printed after a fresh install). */
	notes: string[];
	/** Printed after every install: the todo tools, set or still off. */
	remarks: string[];
}

export type { InstallReport } from "../shared/install-report.js";

export async function installClaudeCode(options: InstallOptions): Promise<InstallReport> {
	return (await installClaudeCodeWithNotes(options)).report;
}

export async function installClaudeCodeWithNotes(options: InstallOptions): Promise<ClaudeInstallResult> {
	const root = options.root ?? packageRoot();
	const program = options.program ?? formFor(options.scope, root);
	const bundle = isPortable(program) ? path.join(root, HOOK_BUNDLE) : program.bundle;
	if (!existsSync(bundle)) throw new BoulderError("not-found", INSTALL_TEXT.noBundle(bundle));
	const file = settingsFile(options.scope, options);
	const original = await readConfigText(file);
	const hooks = withOurHooks(original ?? "", file, program);
	const todo = options.todoTools ? withTodoTools(hooks.text, file) : { text: hooks.text, changed: false };
	let link: string | null = null;
	if (isPortable(program)) link = await linkForUser(options, LINK, bundle);
	const notes = isPortable(program)
		? [INSTALL_TEXT.portable(link, root)]
		: [INSTALL_TEXT.pinned(program.node, program.bundle, options.scope)];
	const remarks = [todoToolsNote(options, file, todo.text, todo.changed)];
	if (!hooks.changed && !todo.changed) {
		return { report: { file, action: "unchanged", backup: null, entries: 0 }, notes, remarks };
	}
	const backup = await writeConfigText(file, original, todo.text, options);
	const action = !hooks.changed || hooks.removed > 0 ? "updated" : "installed";
	return { report: { file, action, backup, entries: hooks.added }, notes, remarks };
}

/** What the install says about the todo tools: what it set, or that they are off and how to turn them on. Never silent. */
function todoToolsNote(options: InstallOptions, file: string, text: string, changed: boolean): string {
	if (options.todoTools) return changed ? TODO_TOOLS_TEXT.set(file) : TODO_TOOLS_TEXT.alreadySet(file);
	if (turnsOn(options.env[TODO_TOOLS_VARIABLE]) || settingsTurnOn(plainValue(parseSettings(text, file)))) {
		return TODO_TOOLS_TEXT.alreadySet(turnsOn(options.env[TODO_TOOLS_VARIABLE]) ? "this shell" : file);
	}
	return TODO_TOOLS_TEXT.offer(options.scope);
}

export async function uninstallClaudeCode(options: InstallOptions): Promise<InstallReport> {
	const file = settingsFile(options.scope, options);
	const original = await readConfigText(file);
	if (original === null) return { file, action: "absent", backup: null, entries: 0 };
	const edit = withoutOurHooks(original, file);
	if (edit.removed === 0) return { file, action: "absent", backup: null, entries: 0 };
	const empty = sameJson(plainValue(parseSettings(edit.text, file)), {});
	const { backup } = await writeOrRemoveConfig(file, original, edit.text, empty, options);
	return { file, action: "removed", backup, entries: edit.removed };
}

export type { SettingsEditResult } from "../shared/hooks-file.js";

/** Claude Code's hooks, as the shared hooks-file editor reads and writes them. */
const DIALECT: HooksDialect<HookForm, OurCommand, HookRegistration> = {
	registrations: REGISTRATIONS,
	group: matcherGroup,
	parseOurs: parseOurCommand,
	text: INSTALL_TEXT,
};

/**
 * Pure: the settings text with exactly boulder's hooks for `program`. When
 * they are there already, the text comes back unchanged (same bytes).
 *
 * Contract: throws `BoulderError("settings-invalid")` for text that is not a
 * JSON object, or whose `hooks` (or an event's list) has the wrong shape.
 */
export function withOurHooks(text: string, file: string, program: HookForm): SettingsEditResult {
	return withOurHooksOf(DIALECT, text, file, program);
}

/** Pure: the settings text without boulder's hook entries; everything else byte for byte. */
export function withoutOurHooks(text: string, file: string): SettingsEditResult {
	return withoutOurHooksOf(DIALECT, text, file);
}

/** Our entries, read back from a settings value: one per command of ours, with its event and form. */
export function ourEntries(settings: unknown): Array<OurCommand & { word: string }> {
	return ourEntriesOf(DIALECT, settings);
}

/** Parses settings text (a byte order mark allowed) into its tree. Contract: throws `BoulderError("settings-invalid")`. */
export function parseSettings(text: string, file: string) {
	return parseSettingsOf(DIALECT, text, file);
}
