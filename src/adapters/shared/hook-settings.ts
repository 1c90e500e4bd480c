/**
 * boulder's hook entries in a harness's JSON settings file, for the harnesses
 * whose settings hold hooks as Claude Code's do: `hooks.<Event>` is a list of
 * groups `{matcher?, hooks: [{type: "command", command, timeout}]}`. Each
 * harness gives its dialect: its registrations, the group it installs for
 * each, how it recognises a command of boulder's (a marker in the command),
 * and its words for a file it cannot use.
 *
 * The file is edited in place (`settings-json.ts`): the user's other settings
 * and hooks keep every byte; installing again replaces boulder's entries
 * rather than adding a second set; when they are already there the text comes
 * back unchanged (same bytes). Every edit is checked against the intended
 * value before it is returned.
 */
import { applyEdits, type Edit, type Node } from "jsonc-parser";
import { BoulderError } from "../../core/errors.js";
import { sameJson } from "./config-file.js";
import { isRecord } from "./hook-input.js";
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
} from "./settings-json.js";

/** What the installer says about a settings file it cannot use. */
export interface SettingsText {
	notJson(file: string, problem: string): string;
	notObject(file: string, what: string): string;
	hooksNotObject(file: string): string;
	eventNotList(file: string, event: string): string;
}

export interface HookSettingsDialect<Form> {
	registrations: readonly { event: string }[];
	/** The group installed for one registration, in this form. */
	group(form: Form, registration: { event: string }): Record<string, unknown>;
	/** A command boulder installed, read back (with its event); null for anyone else's. */
	parseOurCommand(command: unknown): { event: string } | null;
	text: SettingsText;
	/** What a file the installer creates holds beside `hooks` (the harness's own bookkeeping). */
	freshFile?: Record<string, unknown>;
}

/** Every event's groups: the value of a settings file's `hooks`. */
export function hooksOf<Form>(form: Form, dialect: HookSettingsDialect<Form>): Record<string, unknown[]> {
	const hooks: Record<string, unknown[]> = {};
	for (const registration of dialect.registrations) hooks[registration.event] = [dialect.group(form, registration)];
	return hooks;
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
export function withOurHooks<Form>(
	text: string,
	file: string,
	program: Form,
	dialect: HookSettingsDialect<Form>,
): SettingsEditResult {
	if (text.trim() === "") {
		const fresh = `${JSON.stringify({ ...dialect.freshFile, hooks: hooksOf(program, dialect) }, null, 2)}\n`;
		return { text: fresh, changed: true, added: dialect.registrations.length, removed: 0 };
	}
	const root = parseSettings(text, file, dialect.text);
	checkShape(root, file, dialect);
	if (alreadyInstalled(plainValue(root), program, dialect)) return { text, changed: false, added: 0, removed: 0 };
	const cleared = withoutOurHooks(text, file, dialect);
	let next = cleared.text;
	for (const registration of dialect.registrations) {
		const current = parseSettings(next, file, dialect.text);
		const group = dialect.group(program, registration);
		const hooks = memberOf(current, "hooks");
		let edit: Edit;
		if (!hooks) {
			edit = addMemberEdit(next, current, "hooks", hooksOf(program, dialect));
			next = applyEdits(next, [edit]);
			break;
		}
		const event = memberOf(hooks, registration.event);
		edit = event ? appendItemEdit(next, event, group) : addMemberEdit(next, hooks, registration.event, [group]);
		next = applyEdits(next, [edit]);
	}
	verify(next, expectedAfterInstall(plainValue(root), program, dialect), file, text, dialect.text);
	return { text: next, changed: next !== text, added: dialect.registrations.length, removed: cleared.removed };
}

/** Pure: the settings text without boulder's hook entries; everything else byte for byte. */
export function withoutOurHooks<Form>(
	text: string,
	file: string,
	dialect: HookSettingsDialect<Form>,
): SettingsEditResult {
	let next = text;
	let removed = 0;
	for (;;) {
		const root = parseSettings(next, file, dialect.text);
		const edit = nextRemoval(root, (hook) => ourNode(hook, dialect.parseOurCommand));
		if (edit === null) break;
		next = applyEdits(next, [edit]);
		removed++;
	}
	if (removed > 0) {
		const before = plainValue(parseSettings(text, file, dialect.text));
		verify(next, expectedAfterUninstall(before, dialect.parseOurCommand), file, text, dialect.text);
	}
	return { text: next, changed: removed > 0, added: 0, removed };
}

/** Our entries, read back from a settings value: one per command of ours, with its event and form. */
export function ourEntries<Ours extends { event: string }>(
	settings: unknown,
	parseOurs: (command: unknown) => Ours | null,
): Ours[] {
	const found: Ours[] = [];
	const hooks = isRecord(settings) ? settings.hooks : undefined;
	if (!isRecord(hooks)) return found;
	for (const [event, groups] of Object.entries(hooks)) {
		if (!Array.isArray(groups)) continue;
		for (const group of groups) {
			if (!isRecord(group) || !Array.isArray(group.hooks)) continue;
			for (const hook of group.hooks) {
				const ours = isRecord(hook) ? parseOurs(hook.command) : null;
				if (ours) found.push({ ...ours, event });
			}
		}
	}
	return found;
}

/** The removal of the next of our hook entries (with its group, event and `hooks` when they empty), or null. */
function nextRemoval(root: Node, isOurs: (hook: Node) => boolean): Edit | null {
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

function ourNode(hook: Node, parseOurs: (command: unknown) => unknown): boolean {
	// Only a string node has a value among the nodes `command` can be.
	return hook.type === "object" && parseOurs(memberOf(hook, "command")?.value) !== null;
}

/** Exactly one group of ours per registration, equal to what this program installs, and no other entry of ours. */
function alreadyInstalled<Form>(settings: unknown, program: Form, dialect: HookSettingsDialect<Form>): boolean {
	if (ourEntries(settings, dialect.parseOurCommand).length !== dialect.registrations.length) return false;
	const hooks = (settings as { hooks: Record<string, unknown[]> }).hooks;
	return dialect.registrations.every((registration) =>
		(hooks[registration.event] ?? []).some((group) => sameJson(group, dialect.group(program, registration))),
	);
}

function expectedAfterUninstall(settings: unknown, parseOurs: (command: unknown) => unknown): unknown {
	if (!isRecord(settings) || !isRecord(settings.hooks)) return settings;
	const hooks: Record<string, unknown> = {};
	for (const [event, groups] of Object.entries(settings.hooks)) {
		if (!Array.isArray(groups)) {
			hooks[event] = groups;
			continue;
		}
		const kept = groups.flatMap((group) => {
			if (!isRecord(group) || !Array.isArray(group.hooks)) return [group];
			const others = group.hooks.filter((hook) => !(isRecord(hook) && parseOurs(hook.command)));
			if (others.length === group.hooks.length) return [group];
			return others.length === 0 ? [] : [{ ...group, hooks: others }];
		});
		if (kept.length > 0 || groups.length === 0) hooks[event] = kept;
	}
	const { hooks: _, ...rest } = settings;
	return Object.keys(hooks).length > 0 || Object.keys(settings.hooks).length === 0 ? { ...rest, hooks } : rest;
}

function expectedAfterInstall<Form>(settings: unknown, program: Form, dialect: HookSettingsDialect<Form>): unknown {
	const cleared = expectedAfterUninstall(settings, dialect.parseOurCommand) as Record<string, unknown>;
	const hooks: Record<string, unknown> = { ...(isRecord(cleared.hooks) ? cleared.hooks : {}) };
	for (const registration of dialect.registrations) {
		const groups = Array.isArray(hooks[registration.event]) ? (hooks[registration.event] as unknown[]) : [];
		hooks[registration.event] = [...groups, dialect.group(program, registration)];
	}
	return { ...cleared, hooks };
}

/** The edit must give exactly the intended settings, and keep a byte order mark: a guard against a bug writing a damaged file. */
function verify(text: string, expected: unknown, file: string, before: string, words: SettingsText): void {
	if (
		!sameJson(plainValue(parseSettings(text, file, words)), expected) ||
		text.startsWith(BOM) !== before.startsWith(BOM)
	) {
		throw new BoulderError(
			"internal",
			`editing ${file} went wrong (the result differs from the intent); nothing written`,
		);
	}
}

const BOM = "\uFEFF";

/** Parses settings text (a byte order mark allowed) into its tree. Contract: throws `BoulderError("settings-invalid")`. */
export function parseSettings(text: string, file: string, words: SettingsText): Node {
	let root: Node;
	try {
		root = parseJsonTree(text, "json");
	} catch (error) {
		if (error instanceof JsonSyntaxError)
			throw new BoulderError("settings-invalid", words.notJson(file, error.message));
		throw error;
	}
	if (root.type !== "object") {
		const what = root.type === "array" ? "a list" : `the value ${JSON.stringify(plainValue(root))}`;
		throw new BoulderError("settings-invalid", words.notObject(file, what));
	}
	return root;
}

function checkShape<Form>(root: Node, file: string, dialect: HookSettingsDialect<Form>): void {
	const hooks = memberOf(root, "hooks");
	if (!hooks) return;
	if (hooks.type !== "object") throw new BoulderError("settings-invalid", dialect.text.hooksNotObject(file));
	for (const registration of dialect.registrations) {
		const event = memberOf(hooks, registration.event);
		if (event && event.type !== "array") {
			throw new BoulderError("settings-invalid", dialect.text.eventNotList(file, registration.event));
		}
	}
}
