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
import { applyEdits, type Edit, type Node } from "jsonc-parser";
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
import type { InstallReport } from "../shared/install-report.js";
import {
	addMemberEdit,
	appendItemEdit,
	elementsOf,
	JsonSyntaxError,
	keyOf,
	memberOf,
	memberValue,
	parseJsonTree,
	plainValue,
	removeElementEdit,
} from "../shared/settings-json.js";
import {
	HOOK_BUNDLE,
	HOOK_LINK,
	type HookForm,
	type HookProgram,
	hooksObject,
	isPortable,
	matcherGroup,
	type OurCommand,
	PORTABLE,
	parseOurCommand,
	REGISTRATIONS,
} from "./hook-config.js";
import { isRecord } from "./hook-input.js";
import { INSTALL_TEXT, LINK_GONE_NOTICE } from "./messages.js";

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
	now?: () => Date;
}

export interface ClaudeInstallResult {
	report: InstallReport;
	/** What the user should know about the form written (printed after a fresh install). */
	notes: string[];
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
	const edit = withOurHooks(original ?? "", file, program);
	let link: string | null = null;
	if (isPortable(program)) link = await linkForUser(options, LINK, bundle);
	const notes = isPortable(program)
		? [INSTALL_TEXT.portable(link, root)]
		: [INSTALL_TEXT.pinned(program.node, program.bundle, options.scope)];
	if (!edit.changed) return { report: { file, action: "unchanged", backup: null, entries: 0 }, notes };
	const backup = await writeConfigText(file, original, edit.text, options);
	const action = edit.removed > 0 ? "updated" : "installed";
	return { report: { file, action, backup, entries: edit.added }, notes };
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

export interface SettingsEditResult {
	text: string;
	changed: boolean;
	added: number;
	removed: number;
}

/**
 * Pure: the settings text with exactly boulder's hooks for `program`. When
 * they are there already, the text comes back unchanged (same bytes).
 *
 * Contract: throws `BoulderError("settings-invalid")` for text that is not a
 * JSON object, or whose `hooks` (or an event's list) has the wrong shape.
 */
export function withOurHooks(text: string, file: string, program: HookForm): SettingsEditResult {
	if (text.trim() === "") {
		const fresh = `${JSON.stringify({ hooks: hooksObject(program) }, null, 2)}\n`;
		return { text: fresh, changed: true, added: REGISTRATIONS.length, removed: 0 };
	}
	const root = parseSettings(text, file);
	checkShape(root, file);
	if (alreadyInstalled(plainValue(root), program)) return { text, changed: false, added: 0, removed: 0 };
	const cleared = withoutOurHooks(text, file);
	let next = cleared.text;
	for (const registration of REGISTRATIONS) {
		const current = parseSettings(next, file);
		const group = matcherGroup(program, registration);
		const hooks = memberOf(current, "hooks");
		let edit: Edit;
		if (!hooks) {
			edit = addMemberEdit(next, current, "hooks", hooksObject(program));
			next = applyEdits(next, [edit]);
			break;
		}
		const event = memberOf(hooks, registration.event);
		edit = event ? appendItemEdit(next, event, group) : addMemberEdit(next, hooks, registration.event, [group]);
		next = applyEdits(next, [edit]);
	}
	verify(next, expectedAfterInstall(plainValue(root), program), file, text);
	return { text: next, changed: next !== text, added: REGISTRATIONS.length, removed: cleared.removed };
}

/** Pure: the settings text without boulder's hook entries; everything else byte for byte. */
export function withoutOurHooks(text: string, file: string): SettingsEditResult {
	let next = text;
	let removed = 0;
	for (;;) {
		const root = parseSettings(next, file);
		const edit = nextRemoval(root);
		if (edit === null) break;
		next = applyEdits(next, [edit]);
		removed++;
	}
	if (removed > 0) verify(next, expectedAfterUninstall(plainValue(parseSettings(text, file))), file, text);
	return { text: next, changed: removed > 0, added: 0, removed };
}

/** Our entries, read back from a settings value: one per command of ours, with its event and form. */
export function ourEntries(settings: unknown): OurCommand[] {
	const found: OurCommand[] = [];
	const hooks = isRecord(settings) ? settings.hooks : undefined;
	if (!isRecord(hooks)) return found;
	for (const [event, groups] of Object.entries(hooks)) {
		if (!Array.isArray(groups)) continue;
		for (const group of groups) {
			if (!isRecord(group) || !Array.isArray(group.hooks)) continue;
			for (const hook of group.hooks) {
				const ours = isRecord(hook) ? parseOurCommand(hook.command) : null;
				if (ours) found.push({ ...ours, event });
			}
		}
	}
	return found;
}

/** The removal of the next of our hook entries (with its group, event and `hooks` when they empty), or null. */
function nextRemoval(root: Node): Edit | null {
	const hooksIndex = elementsOf(root).findIndex((member) => keyOf(member) === "hooks");
	const hooks = memberValue(elementsOf(root)[hooksIndex]);
	if (hooks?.type !== "object") return null;
	for (const [eventIndex, event] of elementsOf(hooks).entries()) {
		const groups = memberValue(event);
		if (groups?.type !== "array") continue;
		for (const [groupIndex, group] of elementsOf(groups).entries()) {
			if (group.type !== "object") continue;
			const list = memberOf(group, "hooks");
			if (list?.type !== "array") continue;
			const ours = elementsOf(list).map((hook) => isOurs(hook));
			const first = ours.indexOf(true);
			if (first === -1) continue;
			if (!ours.every(Boolean)) return removeElementEdit(list, first);
			if (elementsOf(groups).length > 1) return removeElementEdit(groups, groupIndex);
			if (elementsOf(hooks).length > 1) return removeElementEdit(hooks, eventIndex);
			return removeElementEdit(root, hooksIndex);
		}
	}
	return null;
}

function isOurs(hook: Node): boolean {
	// Only a string node has a value among the nodes `command` can be.
	return hook.type === "object" && parseOurCommand(memberOf(hook, "command")?.value) !== null;
}

/** Exactly one group of ours per registration, equal to what this program installs, and no other entry of ours. */
function alreadyInstalled(settings: unknown, program: HookForm): boolean {
	if (ourEntries(settings).length !== REGISTRATIONS.length) return false;
	const hooks = (settings as { hooks: Record<string, unknown[]> }).hooks;
	return REGISTRATIONS.every((registration) =>
		(hooks[registration.event] ?? []).some((group) => sameJson(group, matcherGroup(program, registration))),
	);
}

function expectedAfterUninstall(settings: unknown): unknown {
	if (!isRecord(settings) || !isRecord(settings.hooks)) return settings;
	const hooks: Record<string, unknown> = {};
	for (const [event, groups] of Object.entries(settings.hooks)) {
		if (!Array.isArray(groups)) {
			hooks[event] = groups;
			continue;
		}
		const kept = groups.flatMap((group) => {
			if (!isRecord(group) || !Array.isArray(group.hooks)) return [group];
			const others = group.hooks.filter((hook) => !(isRecord(hook) && parseOurCommand(hook.command)));
			if (others.length === group.hooks.length) return [group];
			return others.length === 0 ? [] : [{ ...group, hooks: others }];
		});
		if (kept.length > 0 || groups.length === 0) hooks[event] = kept;
	}
	const { hooks: _, ...rest } = settings;
	return Object.keys(hooks).length > 0 || Object.keys(settings.hooks).length === 0 ? { ...rest, hooks } : rest;
}

function expectedAfterInstall(settings: unknown, program: HookForm): unknown {
	const cleared = expectedAfterUninstall(settings) as Record<string, unknown>;
	const hooks: Record<string, unknown> = { ...(isRecord(cleared.hooks) ? cleared.hooks : {}) };
	for (const registration of REGISTRATIONS) {
		const groups = Array.isArray(hooks[registration.event]) ? (hooks[registration.event] as unknown[]) : [];
		hooks[registration.event] = [...groups, matcherGroup(program, registration)];
	}
	return { ...cleared, hooks };
}

/** The edit must give exactly the intended settings, and keep a byte order mark: a guard against a bug writing a damaged file. */
function verify(text: string, expected: unknown, file: string, before: string): void {
	if (!sameJson(plainValue(parseSettings(text, file)), expected) || text.startsWith(BOM) !== before.startsWith(BOM)) {
		throw new BoulderError(
			"internal",
			`editing ${file} went wrong (the result differs from the intent); nothing written`,
		);
	}
}

const BOM = "\uFEFF";

/** Parses settings text (a byte order mark allowed) into its tree. Contract: throws `BoulderError("settings-invalid")`. */
export function parseSettings(text: string, file: string): Node {
	let root: Node;
	try {
		root = parseJsonTree(text, "json");
	} catch (error) {
		if (error instanceof JsonSyntaxError)
			throw new BoulderError("settings-invalid", INSTALL_TEXT.notJson(file, error.message));
		throw error;
	}
	if (root.type !== "object") {
		const what = root.type === "array" ? "a list" : `the value ${JSON.stringify(plainValue(root))}`;
		throw new BoulderError("settings-invalid", INSTALL_TEXT.notObject(file, what));
	}
	return root;
}

function checkShape(root: Node, file: string): void {
	const hooks = memberOf(root, "hooks");
	if (!hooks) return;
	if (hooks.type !== "object") throw new BoulderError("settings-invalid", INSTALL_TEXT.hooksNotObject(file));
	for (const registration of REGISTRATIONS) {
		const event = memberOf(hooks, registration.event);
		if (event && event.type !== "array") {
			throw new BoulderError("settings-invalid", INSTALL_TEXT.eventNotList(file, registration.event));
		}
	}
}
