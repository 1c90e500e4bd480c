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
 * The file is edited in place (`settings-json.ts`): the user's other settings
 * and hooks keep every byte. boulder's entries are recognised by the marker
 * in their command (`hook-config.ts`), so uninstall removes exactly those,
 * and installing again replaces them (a newer boulder, a moved package)
 * rather than adding a second set. Nothing is written when nothing changes;
 * otherwise the old file is first copied to
 * `settings.json.boulder-backup-<UTC time>`. A file that is not valid JSON is
 * refused, never rewritten.
 *
 * The installed command runs the bundled hook by absolute path with this
 * node, so it works without boulder on the PATH or a global install.
 */
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyEdits, type Edit, type Node } from "jsonc-parser";
import { BoulderError } from "../../core/errors.js";
import { packageRoot, packageVersion, readConfigText, sameJson, writeConfigText } from "../shared/config-file.js";
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
	type HookProgram,
	hooksObject,
	matcherGroup,
	parseOurCommand,
	REGISTRATIONS,
} from "./hook-config.js";
import { isRecord } from "./hook-input.js";
import { INSTALL_TEXT } from "./messages.js";

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

export interface InstallOptions extends Place {
	scope: InstallScope;
	program?: HookProgram;
	now?: () => Date;
}

export type { InstallReport } from "../shared/install-report.js";

export async function installClaudeCode(options: InstallOptions): Promise<InstallReport> {
	const program = options.program ?? thisProgram();
	if (!existsSync(program.bundle)) throw new BoulderError("not-found", INSTALL_TEXT.noBundle(program.bundle));
	const file = settingsFile(options.scope, options);
	const original = await readConfigText(file);
	const edit = withOurHooks(original ?? "", file, program);
	if (!edit.changed) return { file, action: "unchanged", backup: null, entries: 0 };
	const backup = await writeConfigText(file, original, edit.text, options.now);
	return { file, action: edit.removed > 0 ? "updated" : "installed", backup, entries: edit.added };
}

export async function uninstallClaudeCode(options: InstallOptions): Promise<InstallReport> {
	const file = settingsFile(options.scope, options);
	const original = await readConfigText(file);
	if (original === null) return { file, action: "absent", backup: null, entries: 0 };
	const edit = withoutOurHooks(original, file);
	if (edit.removed === 0) return { file, action: "absent", backup: null, entries: 0 };
	const backup = await writeConfigText(file, original, edit.text, options.now);
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
export function withOurHooks(text: string, file: string, program: HookProgram): SettingsEditResult {
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
	verify(next, expectedAfterInstall(JSON.parse(text), program), file);
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
	if (removed > 0) verify(next, expectedAfterUninstall(JSON.parse(text)), file);
	return { text: next, changed: removed > 0, added: 0, removed };
}

/** Our entries, read back from a settings value: event → the versions and programs found. */
export function ourEntries(settings: unknown): { event: string; version: string; node: string; bundle: string }[] {
	const found: { event: string; version: string; node: string; bundle: string }[] = [];
	const hooks = isRecord(settings) ? settings.hooks : undefined;
	if (!isRecord(hooks)) return found;
	for (const [event, groups] of Object.entries(hooks)) {
		if (!Array.isArray(groups)) continue;
		for (const group of groups) {
			if (!isRecord(group) || !Array.isArray(group.hooks)) continue;
			for (const hook of group.hooks) {
				const ours = isRecord(hook) ? parseOurCommand(hook.command) : null;
				if (ours) found.push({ event, version: ours.version, node: ours.node, bundle: ours.bundle });
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
function alreadyInstalled(settings: unknown, program: HookProgram): boolean {
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

function expectedAfterInstall(settings: unknown, program: HookProgram): unknown {
	const cleared = expectedAfterUninstall(settings) as Record<string, unknown>;
	const hooks: Record<string, unknown> = { ...(isRecord(cleared.hooks) ? cleared.hooks : {}) };
	for (const registration of REGISTRATIONS) {
		const groups = Array.isArray(hooks[registration.event]) ? (hooks[registration.event] as unknown[]) : [];
		hooks[registration.event] = [...groups, matcherGroup(program, registration)];
	}
	return { ...cleared, hooks };
}

/** The edit must give exactly the intended settings: a guard against a bug writing a damaged file. */
function verify(text: string, expected: unknown, file: string): void {
	if (!sameJson(JSON.parse(text), expected)) {
		throw new BoulderError(
			"internal",
			`editing ${file} went wrong (the result differs from the intent); nothing written`,
		);
	}
}

function parseSettings(text: string, file: string): Node {
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
