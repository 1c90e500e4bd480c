/**
 * A harness's hooks file in the shape Claude Code set and Codex copied
 * (`{"hooks": {"<Event>": [{"matcher"?, "hooks": [{"type": "command",
 * "command", "timeout"}]}]}}`, inside a settings file or on its own), edited
 * in place (`settings-json.ts`) so the user's other settings and hooks keep
 * every byte. boulder's entries are recognised by the marker in their command
 * (each harness's `parseOurs`), so uninstall removes exactly those, and
 * installing again replaces them (a newer boulder, a moved package, the other
 * form) rather than adding a second set. A file that is not a JSON object, or
 * whose `hooks` has the wrong shape, is refused, never rewritten; every edit
 * is checked to give exactly the intended value before it is returned.
 */
import { applyEdits, type Edit, type Node } from "jsonc-parser";
import { BoulderError } from "../../core/errors.js";
import { sameJson } from "./config-file.js";
import { isRecord } from "./hook-input.js";
import { duplicateKeyText } from "./install-messages.js";
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

/** What one harness's hooks file holds of boulder's: `F` is the form of command it installs, `C` an entry read back. */
export interface HooksDialect<
	F,
	C extends { event: string } = { event: string },
	R extends { event: string } = { event: string },
> {
	registrations: readonly R[];
	/** The matcher group boulder installs for one registration. */
	group(form: F, registration: R): Record<string, unknown>;
	/** A command boulder installed, read back; null for anyone else's. */
	parseOurs(command: unknown): C | null;
	/** How the harness reads the file: plain JSON (the default) or JSON with comments and trailing commas. */
	syntax?: JsonDialect;
	text: {
		notJson(file: string, problem: string): string;
		notObject(file: string, what: string): string;
		hooksNotObject(file: string): string;
		eventNotList(file: string, event: string): string;
	};
}

/** Every event's groups: the value of `hooks`. */
export function hooksObject<F, R extends { event: string }>(
	dialect: HooksDialect<F, { event: string }, R>,
	form: F,
): Record<string, unknown[]> {
	const hooks: Record<string, unknown[]> = {};
	for (const registration of dialect.registrations) {
		hooks[registration.event] = [...(hooks[registration.event] ?? []), dialect.group(form, registration)];
	}
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
export function withOurHooks<F, R extends { event: string }>(
	dialect: HooksDialect<F, { event: string }, R>,
	text: string,
	file: string,
	program: F,
): SettingsEditResult {
	const { registrations } = dialect;
	if (text.trim() === "") {
		const fresh = `${JSON.stringify({ hooks: hooksObject(dialect, program) }, null, 2)}\n`;
		return { text: fresh, changed: true, added: registrations.length, removed: 0 };
	}
	const root = parseSettings(dialect, text, file);
	refuseDuplicateKeys(root, text, file);
	checkShape(dialect, root, file);
	if (alreadyInstalled(dialect, plainValue(root), program)) return { text, changed: false, added: 0, removed: 0 };
	const cleared = withoutOurHooks(dialect, text, file);
	let next = cleared.text;
	for (const registration of registrations) {
		const current = parseSettings(dialect, next, file);
		const group = dialect.group(program, registration);
		const hooks = memberOf(current, "hooks");
		let edit: Edit;
		if (!hooks) {
			edit = addMemberEdit(next, current, "hooks", hooksObject(dialect, program));
			next = applyEdits(next, [edit]);
			break;
		}
		const event = memberOf(hooks, registration.event);
		edit = event ? appendItemEdit(next, event, group) : addMemberEdit(next, hooks, registration.event, [group]);
		next = applyEdits(next, [edit]);
	}
	verify(dialect, next, expectedAfterInstall(dialect, plainValue(root), program), file, text);
	return { text: next, changed: next !== text, added: registrations.length, removed: cleared.removed };
}

/** Pure: the settings text without boulder's hook entries; everything else byte for byte. */
export function withoutOurHooks(
	dialect: Pick<HooksDialect<unknown>, "parseOurs" | "text" | "syntax">,
	text: string,
	file: string,
): SettingsEditResult {
	refuseDuplicateKeys(parseSettings(dialect, text, file), text, file);
	let next = text;
	let removed = 0;
	for (;;) {
		const root = parseSettings(dialect, next, file);
		const edit = nextRemoval(dialect, root);
		if (edit === null) break;
		next = applyEdits(next, [edit]);
		removed++;
	}
	if (removed > 0) {
		const before = plainValue(parseSettings(dialect, text, file));
		verify(dialect, next, expectedAfterUninstall(dialect, before), file, text);
	}
	return { text: next, changed: removed > 0, added: 0, removed };
}

/**
 * Our entries, read back from a settings value: one per command of ours, with
 * the event it is registered under, its form, and the `word` its command
 * passes the hook program (the event's name, or another registration's word
 * under the same event, such as Claude Code's `Watchdog` under Stop).
 */
export function ourEntries<C extends { event: string }>(
	dialect: Pick<HooksDialect<unknown, C>, "parseOurs">,
	settings: unknown,
): Array<C & { word: string }> {
	const found: Array<C & { word: string }> = [];
	const hooks = isRecord(settings) ? settings.hooks : undefined;
	if (!isRecord(hooks)) return found;
	for (const [event, groups] of Object.entries(hooks)) {
		if (!Array.isArray(groups)) continue;
		for (const group of groups) {
			if (!isRecord(group) || !Array.isArray(group.hooks)) continue;
			for (const hook of group.hooks) {
				const ours = isRecord(hook) ? dialect.parseOurs(hook.command) : null;
				if (ours) found.push({ ...ours, event, word: ours.event });
			}
		}
	}
	return found;
}

/** The removal of the next of our hook entries (with its group, event and `hooks` when they empty), or null. */
function nextRemoval(dialect: Pick<HooksDialect<unknown>, "parseOurs">, root: Node): Edit | null {
	// The last, as `memberOf` and `JSON.parse` take it (duplicates are refused before this runs).
	const hooksIndex = elementsOf(root).findLastIndex((member) => keyOf(member) === "hooks");
	const hooks = memberValue(elementsOf(root)[hooksIndex]);
	if (hooks?.type !== "object") return null;
	for (const [eventIndex, event] of elementsOf(hooks).entries()) {
		const groups = memberValue(event);
		if (groups?.type !== "array") continue;
		for (const [groupIndex, group] of elementsOf(groups).entries()) {
			if (group.type !== "object") continue;
			const list = memberOf(group, "hooks");
			if (list?.type !== "array") continue;
			const ours = elementsOf(list).map((hook) => isOurs(dialect, hook));
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

function isOurs(dialect: Pick<HooksDialect<unknown>, "parseOurs">, hook: Node): boolean {
	// Only a string node has a value among the nodes `command` can be.
	return hook.type === "object" && dialect.parseOurs(memberOf(hook, "command")?.value) !== null;
}

/** Exactly one group of ours per registration, equal to what this program installs, and no other entry of ours. */
function alreadyInstalled<F, R extends { event: string }>(
	dialect: HooksDialect<F, { event: string }, R>,
	settings: unknown,
	program: F,
): boolean {
	const { registrations } = dialect;
	if (ourEntries(dialect, settings).length !== registrations.length) return false;
	const hooks = (settings as { hooks: Record<string, unknown[]> }).hooks;
	return registrations.every((registration) =>
		(hooks[registration.event] ?? []).some((group) => sameJson(group, dialect.group(program, registration))),
	);
}

function expectedAfterUninstall(dialect: Pick<HooksDialect<unknown>, "parseOurs">, settings: unknown): unknown {
	if (!isRecord(settings) || !isRecord(settings.hooks)) return settings;
	const hooks: Record<string, unknown> = {};
	for (const [event, groups] of Object.entries(settings.hooks)) {
		if (!Array.isArray(groups)) {
			hooks[event] = groups;
			continue;
		}
		const kept = groups.flatMap((group) => {
			if (!isRecord(group) || !Array.isArray(group.hooks)) return [group];
			const others = group.hooks.filter((hook) => !(isRecord(hook) && dialect.parseOurs(hook.command)));
			if (others.length === group.hooks.length) return [group];
			return others.length === 0 ? [] : [{ ...group, hooks: others }];
		});
		if (kept.length > 0 || groups.length === 0) hooks[event] = kept;
	}
	const { hooks: _, ...rest } = settings;
	return Object.keys(hooks).length > 0 || Object.keys(settings.hooks).length === 0 ? { ...rest, hooks } : rest;
}

function expectedAfterInstall<F, R extends { event: string }>(
	dialect: HooksDialect<F, { event: string }, R>,
	settings: unknown,
	program: F,
): unknown {
	const { registrations } = dialect;
	const cleared = expectedAfterUninstall(dialect, settings) as Record<string, unknown>;
	const hooks: Record<string, unknown> = { ...(isRecord(cleared.hooks) ? cleared.hooks : {}) };
	for (const registration of registrations) {
		const groups = Array.isArray(hooks[registration.event]) ? (hooks[registration.event] as unknown[]) : [];
		hooks[registration.event] = [...groups, dialect.group(program, registration)];
	}
	return { ...cleared, hooks };
}

/** The edit must give exactly the intended settings, and keep a byte order mark: a guard against a bug writing a damaged file. */
function verify(
	dialect: Pick<HooksDialect<unknown>, "text" | "syntax">,
	text: string,
	expected: unknown,
	file: string,
	before: string,
): void {
	if (
		!sameJson(plainValue(parseSettings(dialect, text, file)), expected) ||
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
export function parseSettings(
	dialect: Pick<HooksDialect<unknown>, "text" | "syntax">,
	text: string,
	file: string,
): Node {
	let root: Node;
	try {
		root = parseJsonTree(text, dialect.syntax ?? "json");
	} catch (error) {
		if (error instanceof JsonSyntaxError)
			throw new BoulderError("settings-invalid", dialect.text.notJson(file, error.message));
		throw error;
	}
	if (root.type !== "object") {
		const what = root.type === "array" ? "a list" : `the value ${JSON.stringify(plainValue(root))}`;
		throw new BoulderError("settings-invalid", dialect.text.notObject(file, what));
	}
	return root;
}

/**
 * Refuses a file where `hooks`, or a key anywhere inside it, appears twice:
 * an editor that takes the first and a harness that reads the last (as
 * `JSON.parse` does) would disagree on what is installed.
 */
function refuseDuplicateKeys(root: Node, text: string, file: string): void {
	const found = duplicateIn(root, "", (key) => key === "hooks") ?? duplicateUnder(memberOf(root, "hooks"), "hooks");
	if (!found) return;
	const lines = found.offsets.map((offset) => text.slice(0, offset).split("\n").length);
	throw new BoulderError("settings-invalid", duplicateKeyText(file, found.key, lines));
}

function duplicateUnder(node: Node | undefined, at: string): { key: string; offsets: number[] } | undefined {
	if (!node || (node.type !== "object" && node.type !== "array")) return undefined;
	if (node.type === "object") {
		const here = duplicateIn(node, at, () => true);
		if (here) return here;
	}
	for (const [index, element] of elementsOf(node).entries()) {
		const child = node.type === "object" ? memberValue(element) : element;
		const name = node.type === "object" ? String(keyOf(element)) : String(index);
		const found = duplicateUnder(child, `${at}.${name}`);
		if (found) return found;
	}
	return undefined;
}

function duplicateIn(
	object: Node,
	at: string,
	counts: (key: string) => boolean,
): { key: string; offsets: number[] } | undefined {
	const seen = new Map<string, number[]>();
	for (const member of elementsOf(object)) {
		const key = keyOf(member);
		if (typeof key !== "string" || !counts(key)) continue;
		seen.set(key, [...(seen.get(key) ?? []), member.offset]);
	}
	for (const [key, offsets] of seen) {
		if (offsets.length > 1) return { key: at ? `${at}.${key}` : key, offsets };
	}
	return undefined;
}

function checkShape<F, R extends { event: string }>(
	dialect: HooksDialect<F, { event: string }, R>,
	root: Node,
	file: string,
): void {
	const { registrations } = dialect;
	const hooks = memberOf(root, "hooks");
	if (!hooks) return;
	if (hooks.type !== "object") throw new BoulderError("settings-invalid", dialect.text.hooksNotObject(file));
	for (const registration of registrations) {
		const event = memberOf(hooks, registration.event);
		if (event && event.type !== "array") {
			throw new BoulderError("settings-invalid", dialect.text.eventNotList(file, registration.event));
		}
	}
}
