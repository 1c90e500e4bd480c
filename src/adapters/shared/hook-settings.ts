/**
 * boulder's command hooks merged into (or taken out of) a harness's settings
 * file, for the harnesses whose settings hold hooks as `{"hooks": {"<Event>":
 * [{"matcher"?, "hooks": [{"type": "command", "command", "timeout"}]}]}}`
 * (Claude Code, Gemini CLI). A harness gives its spec: the groups it
 * installs, how its commands are recognised as boulder's, its JSON dialect
 * and its words for a file it cannot edit.
 *
 * The file is edited in place (`settings-json.ts`): the user's other settings
 * and hooks keep every byte. boulder's entries are recognised by the marker
 * in their command, so uninstall removes exactly those, and installing again
 * replaces them (a newer boulder, a moved package, the other form) rather
 * than adding a second set. When they are there already, the text comes back
 * unchanged (same bytes). Every edit is checked against its intent before it
 * is returned.
 */
import { applyEdits, type Edit, type Node } from "jsonc-parser";
import { BoulderError } from "../../core/errors.js";
import { isRecord } from "./command-hook.js";
import { sameJson } from "./config-file.js";
import {
	addMemberEdit,
	appendItemEdit,
	elementsOf,
	type JsonDialect,
	JsonSyntaxError,
	keyOf,
	memberOf,
	memberValue,
	parseJsonTree,
	plainValue,
	removeElementEdit,
} from "./settings-json.js";

export interface SettingsText {
	notJson(file: string, problem: string): string;
	notObject(file: string, what: string): string;
	hooksNotObject(file: string): string;
	eventNotList(file: string, event: string): string;
}

export interface HookSettingsSpec {
	dialect: JsonDialect;
	/** boulder's groups, one per event, in the order they are installed. */
	groups: readonly { event: string; group: Record<string, unknown> }[];
	/** Whether a hook's `command` is one boulder installed (any version, any form). */
	isOurs(command: unknown): boolean;
	text: SettingsText;
}

export interface SettingsEditResult {
	text: string;
	changed: boolean;
	added: number;
	removed: number;
}

/**
 * Pure: the settings text with exactly the spec's hooks.
 *
 * Contract: throws `BoulderError("settings-invalid")` for text that is not a
 * JSON object, or whose `hooks` (or an event's list) has the wrong shape.
 */
export function withHooks(spec: HookSettingsSpec, text: string, file: string): SettingsEditResult {
	const count = spec.groups.length;
	if (text.trim() === "") {
		return {
			text: `${JSON.stringify({ hooks: hooksObject(spec) }, null, 2)}\n`,
			changed: true,
			added: count,
			removed: 0,
		};
	}
	const root = parseSettings(spec, text, file);
	checkShape(spec, root, file);
	if (alreadyInstalled(spec, plainValue(root))) return { text, changed: false, added: 0, removed: 0 };
	const cleared = withoutHooks(spec, text, file);
	let next = cleared.text;
	for (const { event, group } of spec.groups) {
		const current = parseSettings(spec, next, file);
		const hooks = memberOf(current, "hooks");
		if (!hooks) {
			next = applyEdits(next, [addMemberEdit(next, current, "hooks", hooksObject(spec))]);
			break;
		}
		const list = memberOf(hooks, event);
		const edit = list ? appendItemEdit(next, list, group) : addMemberEdit(next, hooks, event, [group]);
		next = applyEdits(next, [edit]);
	}
	verify(spec, next, expectedAfterInstall(spec, plainValue(root)), file, text);
	return { text: next, changed: next !== text, added: count, removed: cleared.removed };
}

/** Pure: the settings text without boulder's hook entries; everything else byte for byte. */
export function withoutHooks(spec: HookSettingsSpec, text: string, file: string): SettingsEditResult {
	let next = text;
	let removed = 0;
	for (;;) {
		const edit = nextRemoval(spec, parseSettings(spec, next, file));
		if (edit === null) break;
		next = applyEdits(next, [edit]);
		removed++;
	}
	if (removed > 0) {
		verify(spec, next, expectedAfterUninstall(spec, plainValue(parseSettings(spec, text, file))), file, text);
	}
	return { text: next, changed: removed > 0, added: 0, removed };
}

/** Every command hook of a settings value, with its event. */
export function hookCommands(settings: unknown): { event: string; command: unknown }[] {
	const found: { event: string; command: unknown }[] = [];
	const hooks = isRecord(settings) ? settings.hooks : undefined;
	if (!isRecord(hooks)) return found;
	for (const [event, groups] of Object.entries(hooks)) {
		if (!Array.isArray(groups)) continue;
		for (const group of groups) {
			if (!isRecord(group) || !Array.isArray(group.hooks)) continue;
			for (const hook of group.hooks) if (isRecord(hook)) found.push({ event, command: hook.command });
		}
	}
	return found;
}

/** Whether a settings value holds nothing once boulder's hooks are gone. */
export function isEmptySettings(spec: HookSettingsSpec, text: string, file: string): boolean {
	return sameJson(plainValue(parseSettings(spec, text, file)), {});
}

function hooksObject(spec: HookSettingsSpec): Record<string, unknown[]> {
	const hooks: Record<string, unknown[]> = {};
	for (const { event, group } of spec.groups) hooks[event] = [...(hooks[event] ?? []), group];
	return hooks;
}

/** The removal of the next of our hook entries (with its group, event and `hooks` when they empty), or null. */
function nextRemoval(spec: HookSettingsSpec, root: Node): Edit | null {
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
			// Only a string node has a value among the nodes `command` can be.
			const ours = elementsOf(list).map(
				(hook) => hook.type === "object" && spec.isOurs(memberOf(hook, "command")?.value),
			);
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

/** Exactly one group of ours per registration, equal to what this spec installs, and no other entry of ours. */
function alreadyInstalled(spec: HookSettingsSpec, settings: unknown): boolean {
	const ours = hookCommands(settings).filter((hook) => spec.isOurs(hook.command));
	if (ours.length !== spec.groups.length) return false;
	const hooks = (settings as { hooks: Record<string, unknown[]> }).hooks;
	return spec.groups.every(({ event, group }) => (hooks[event] ?? []).some((found) => sameJson(found, group)));
}

function expectedAfterUninstall(spec: HookSettingsSpec, settings: unknown): unknown {
	if (!isRecord(settings) || !isRecord(settings.hooks)) return settings;
	const hooks: Record<string, unknown> = {};
	for (const [event, groups] of Object.entries(settings.hooks)) {
		if (!Array.isArray(groups)) {
			hooks[event] = groups;
			continue;
		}
		const kept = groups.flatMap((group) => {
			if (!isRecord(group) || !Array.isArray(group.hooks)) return [group];
			const others = group.hooks.filter((hook) => !(isRecord(hook) && spec.isOurs(hook.command)));
			if (others.length === group.hooks.length) return [group];
			return others.length === 0 ? [] : [{ ...group, hooks: others }];
		});
		if (kept.length > 0 || groups.length === 0) hooks[event] = kept;
	}
	const { hooks: _, ...rest } = settings;
	return Object.keys(hooks).length > 0 || Object.keys(settings.hooks).length === 0 ? { ...rest, hooks } : rest;
}

function expectedAfterInstall(spec: HookSettingsSpec, settings: unknown): unknown {
	const cleared = expectedAfterUninstall(spec, settings) as Record<string, unknown>;
	const hooks: Record<string, unknown> = { ...(isRecord(cleared.hooks) ? cleared.hooks : {}) };
	for (const { event, group } of spec.groups) {
		const groups = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
		hooks[event] = [...groups, group];
	}
	return { ...cleared, hooks };
}

const BOM = "\uFEFF";

/** The edit must give exactly the intended settings, and keep a byte order mark: a guard against a bug writing a damaged file. */
function verify(spec: HookSettingsSpec, text: string, expected: unknown, file: string, before: string): void {
	if (
		!sameJson(plainValue(parseSettings(spec, text, file)), expected) ||
		text.startsWith(BOM) !== before.startsWith(BOM)
	) {
		throw new BoulderError(
			"internal",
			`editing ${file} went wrong (the result differs from the intent); nothing written`,
		);
	}
}

/** Parses settings text (a byte order mark allowed) into its tree. Contract: throws `BoulderError("settings-invalid")`. */
export function parseSettings(spec: HookSettingsSpec, text: string, file: string): Node {
	let root: Node;
	try {
		root = parseJsonTree(text, spec.dialect);
	} catch (error) {
		if (error instanceof JsonSyntaxError) {
			throw new BoulderError("settings-invalid", spec.text.notJson(file, error.message));
		}
		throw error;
	}
	if (root.type !== "object") {
		const what = root.type === "array" ? "a list" : `the value ${JSON.stringify(plainValue(root))}`;
		throw new BoulderError("settings-invalid", spec.text.notObject(file, what));
	}
	return root;
}

function checkShape(spec: HookSettingsSpec, root: Node, file: string): void {
	const hooks = memberOf(root, "hooks");
	if (!hooks) return;
	if (hooks.type !== "object") throw new BoulderError("settings-invalid", spec.text.hooksNotObject(file));
	for (const { event } of spec.groups) {
		const list = memberOf(hooks, event);
		if (list && list.type !== "array") throw new BoulderError("settings-invalid", spec.text.eventNotList(file, event));
	}
}
