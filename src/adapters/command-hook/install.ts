/**
 * The family's installer: `boulder install <harness>` merges boulder's hooks
 * into one of the harness's files (`uninstall` takes them out); a harness
 * states only its own data (`HooksInstall`). The same guarantees for all: the
 * project scope gets the portable command (no path of this machine), the
 * others are pinned to this node and copy; the file is edited in place, every
 * other byte kept; nothing is written when nothing changes; the old file is
 * backed up first; a file the install created goes at uninstall when nothing
 * else was put in it; a file the harness would not read is refused.
 *
 * Three layouts: a settings object whose `hooks` is the event map; a file that
 * is the event map (Droid's `hooks.json`, edited as `{"hooks":<file>}`); a file
 * of boulder's own, written and removed whole (Copilot CLI's `boulder.json`).
 */
import { existsSync } from "node:fs";
import { unlink } from "node:fs/promises";
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
import type { OurCommand } from "../shared/hook-command.js";
import { groupedHook, type HookForm, isPortable, PORTABLE } from "../shared/hook-form.js";
import { isRecord, messageOf } from "../shared/hook-input.js";
import { linkForUser } from "../shared/hook-link.js";
import * as hooksFile from "../shared/hooks-file.js";
import { type hooksInstallText, portableHooksNote } from "../shared/install-messages.js";
import type { InstallReport } from "../shared/install-report.js";
import { type JsonDialect, plainValue } from "../shared/settings-json.js";
import type { HookRegistration } from "./registrations.js";
import { type CommandSpelling, commandReader, hookCommand } from "./spelling.js";

export interface Place {
	cwd: string;
	env: NodeJS.ProcessEnv;
}

export type HooksText = ReturnType<typeof hooksInstallText> & { notOurs?: (file: string) => string };

export interface Installed {
	form: HookForm;
	/** The user's link the install wrote, or null. */
	link: string | null;
	root: string;
	file: string;
	options: InstallOptions;
}

export interface HooksInstall {
	harness: string;
	/** Per scope, in the doctor's order: the file of boulder's hooks, or the files that may hold them (`fileFor`). */
	where: Readonly<Record<string, (place: Place) => string | readonly string[]>>;
	registrations: readonly HookRegistration[];
	command: CommandSpelling;
	/** One hook entry, as the file holds it; by default `{type: "command", command, timeout}` (and `asyncRewake`). */
	entry?(command: string, registration: HookRegistration): Record<string, unknown>;
	/** The key of an entry's command, where it is not `command` (Copilot CLI's `bash`). */
	commandKey?: string;
	/** `own`: a file of boulder's alone (Copilot CLI); default `settings`: a settings object with `hooks`. */
	layout?: "settings" | "own";
	/** A file of this name is the event map, read in place of the settings file's hooks (Droid's `hooks.json`). */
	eventMapFile?: string;
	syntax?: JsonDialect;
	/** What a new file starts with besides `hooks`, which alone keeps no file at uninstall (Qwen Code's `$version`). */
	stamp?: Record<string, unknown>;
	text: HooksText;
	/** A sentence on what the portable hooks find on this machine (Codex's). */
	here?(installed: Installed): string;
	/** What the install says after `formNote`. */
	notes?(installed: Installed): string[] | Promise<string[]>;
	/** The harness's own edit of the file after boulder's hooks (Claude Code's todo tools, Qwen Code's cap). */
	alsoEdit?(
		text: string,
		file: string,
		options: InstallOptions,
	): Promise<{ text: string; changed: boolean; notes?: string[]; remarks?: string[] }>;
}

/** Where and how to install; a harness's own options (`todoTools`) ride along for its `alsoEdit`. */
export interface InstallOptions extends Place {
	scope: string;
	/** The form to write; defaults to the scope's (`formFor`). */
	form?: HookForm;
	/** `form`'s older name. */
	program?: HookForm;
	/** The copy of boulder to install; defaults to this one. */
	root?: string;
	now?: () => Date;
	todoTools?: boolean;
	raiseCap?: boolean;
}

export interface InstallResult {
	report: InstallReport;
	notes: string[];
	remarks: string[];
}

/** Portable for the committed project file, pinned for the files that stay on this machine. */
export function formFor(scope: string, root: string = packageRoot(), bundle?: string): HookForm {
	if (scope === "project") return PORTABLE;
	const program = { node: process.execPath, bundle: path.join(root, bundle ?? ""), version: packageVersion(root) };
	// Written for this machine: its harnesses run hook commands in POSIX sh everywhere but on Windows.
	return process.platform === "win32" ? program : { ...program, shell: "sh" };
}

const DIALECTS = new WeakMap<HooksInstall, hooksFile.HooksDialect<HookForm, OurCommand, HookRegistration>>();

function hooksDialect(spec: HooksInstall): hooksFile.HooksDialect<HookForm, OurCommand, HookRegistration> {
	let dialect = DIALECTS.get(spec);
	if (dialect === undefined) {
		dialect = {
			registrations: spec.registrations,
			group: (form, registration) => groupedHook(entryOf(spec, form, registration), registration),
			parseOurs: commandReader(spec.command),
			syntax: spec.syntax,
			text: spec.text,
		};
		DIALECTS.set(spec, dialect);
	}
	return dialect;
}

function entryOf(spec: HooksInstall, form: HookForm, registration: HookRegistration) {
	const command = hookCommand(spec.command, form, registration.word ?? registration.event);
	const entry = { type: "command", command, timeout: registration.timeout };
	return spec.entry?.(command, registration) ?? (registration.asyncRewake ? { ...entry, asyncRewake: true } : entry);
}

/** The whole text of a file of boulder's own (Copilot CLI's). */
export function ownFileText(spec: HooksInstall, form: HookForm): string {
	const hooks: Record<string, unknown[]> = {};
	for (const registration of spec.registrations) {
		hooks[registration.event] = [...(hooks[registration.event] ?? []), entryOf(spec, form, registration)];
	}
	return `${JSON.stringify({ version: 1, hooks }, null, 2)}\n`;
}

/**
 * Boulder's entries in a file's text. Contract: throws `BoulderError("settings-invalid")` for a file the
 * harness would not read (or a file of boulder's own that holds anyone else's hooks).
 */
export function entriesIn(spec: HooksInstall, text: string, file: string): Array<OurCommand & { word: string }> {
	if (spec.layout === "own") return ownEntries(spec, text, file);
	return hooksFile.ourEntries(hooksDialect(spec), valueIn(spec, text, file));
}

/** The file's value as a settings object (an event map seen as `{"hooks": …}`). */
export function valueIn(spec: HooksInstall, text: string, file: string): unknown {
	const wrapped = isEventMap(spec, file) ? `${WRAP}${text}}` : text;
	return plainValue(hooksFile.parseSettings(hooksDialect(spec), wrapped, file));
}

/** Pure: the text with exactly boulder's hooks for `form`; the same bytes when they are there already. */
export function withOurHooks(
	spec: HooksInstall,
	text: string,
	file: string,
	form: HookForm,
): hooksFile.SettingsEditResult {
	const dialect = hooksDialect(spec);
	if (spec.layout === "own") {
		const removed = text === "" ? 0 : ownEntries(spec, text, file).length;
		const next = ownFileText(spec, form);
		return { text: next, changed: next !== text, added: spec.registrations.length, removed };
	}
	if (spec.stamp && text.trim() === "") {
		const fresh = { ...spec.stamp, hooks: hooksFile.hooksObject(dialect, form) };
		return { text: `${JSON.stringify(fresh, null, 2)}\n`, changed: true, added: spec.registrations.length, removed: 0 };
	}
	return edited(spec, file, text, (wrapped) => hooksFile.withOurHooks(dialect, wrapped, file, form));
}

/** Pure: the text without boulder's hooks; everything else byte for byte. */
export function withoutOurHooks(spec: HooksInstall, text: string, file: string): hooksFile.SettingsEditResult {
	if (spec.layout === "own") {
		const removed = ownEntries(spec, text, file).length;
		return { text, changed: true, added: 0, removed };
	}
	return edited(spec, file, text, (wrapped) => hooksFile.withoutOurHooks(hooksDialect(spec), wrapped, file));
}

/**
 * The scope's file for an install: the first, except that a settings file that keeps hooks and has no
 * event-map file beside it gets them (creating the event map would silence its hooks).
 */
export async function fileFor(spec: HooksInstall, scope: string, place: Place): Promise<string> {
	const [first, settings] = filesOf(spec, scope, place) as [string, string | undefined];
	if (spec.eventMapFile === undefined || settings === undefined || existsSync(first)) return first;
	const text = await readConfigText(settings);
	const value = text === null || text.trim() === "" ? null : valueIn(spec, text, settings);
	return isRecord(value) && "hooks" in value ? settings : first;
}

/** The event-map file beside `file` that the harness reads instead of it, or null. */
export function shadowedBy(spec: HooksInstall, file: string): string | null {
	if (spec.eventMapFile === undefined || isEventMap(spec, file)) return null;
	const map = path.join(path.dirname(file), spec.eventMapFile);
	return existsSync(map) ? map : null;
}

/**
 * Said first after every install. Portable: what the hooks run, as the spelling has it (its program on the
 * PATH, the user's link, the notice); pinned (`formFor`): to what, naming the scope where more than one is.
 */
export function formNote(spec: HooksInstall, installed: Installed): string {
	const { form, link, root, options } = installed;
	if (!isPortable(form)) {
		const pinned = Object.keys(spec.where).filter((scope) => scope !== "project").length > 1;
		return spec.text.pinned(form.node, form.bundle, pinned ? options.scope : undefined);
	}
	return portableHooksNote({
		onPath: spec.command.bin,
		linked: spec.command.link === null ? undefined : { link, root },
		notice: spec.command.notInstalled !== undefined,
		here: spec.here?.(installed),
	});
}

export async function installHooks(spec: HooksInstall, options: InstallOptions): Promise<InstallResult> {
	const root = options.root ?? packageRoot();
	const form = options.form ?? options.program ?? formFor(options.scope, root, spec.command.bundle);
	const bundle = isPortable(form) ? path.join(root, spec.command.bundle) : form.bundle;
	if (!existsSync(bundle)) throw new BoulderError("not-found", spec.text.noBundle(bundle));
	const file = await fileFor(spec, options.scope, options);
	const original = await readConfigText(file);
	// Refused before anything is written.
	if (spec.layout === "own" && original !== null) entriesIn(spec, original, file);
	const hooks = withOurHooks(spec, original ?? "", file, form);
	const also = (await spec.alsoEdit?.(hooks.text, file, options)) ?? { text: hooks.text, changed: false };
	const link = isPortable(form) && spec.command.link ? await linkForUser(options, spec.command.link, bundle) : null;
	const installed = { form, link, root, file, options };
	const notes = [formNote(spec, installed), ...((await spec.notes?.(installed)) ?? []), ...(also.notes ?? [])];
	const remarks = also.remarks ?? [];
	if (original !== null && also.text === original) {
		return { report: { file, action: "unchanged", backup: null, entries: 0 }, notes, remarks };
	}
	const backup = await writeConfigText(file, original, also.text, options);
	const replaced = spec.layout === "own" ? original !== null : hooks.removed > 0;
	const action = hooks.changed && !replaced ? "installed" : "updated";
	return { report: { file, action, backup, entries: hooks.changed ? hooks.added : 0 }, notes, remarks };
}

export async function uninstallHooks(spec: HooksInstall, options: Place & { scope: string }): Promise<InstallReport> {
	const own = spec.layout === "own";
	const files = filesOf(spec, options.scope, options);
	for (const file of files) {
		const original = await readConfigText(file);
		if (original === null) continue;
		const edit = withoutOurHooks(spec, original, file);
		if (edit.removed === 0 && !own) continue;
		// A file of boulder's own goes whole, with the folders the install made for it.
		const empty = own || isEmpty(spec, edit.text, file);
		const { removed, backup } = await writeOrRemoveConfig(file, original, edit.text, empty, options);
		if (own && !removed) await unlink(file);
		return { file, action: "removed", backup, entries: edit.removed };
	}
	return { file: files[0] as string, action: "absent", backup: null, entries: 0 };
}

export async function installedScopes(spec: HooksInstall, place: Place) {
	const { scopesHolding } = await import("../shared/installed-scopes.js");
	return scopesHolding(
		Object.keys(spec.where),
		(scope) => filesOf(spec, scope, place),
		(text, file) => entriesIn(spec, text, file).length > 0,
	);
}

export function filesOf(spec: HooksInstall, scope: string, place: Place): readonly string[] {
	const files = spec.where[scope]?.(place) ?? [];
	return typeof files === "string" ? [files] : files;
}

/** Nothing but the stamp left (an event-map file: an empty map). */
function isEmpty(spec: HooksInstall, text: string, file: string): boolean {
	const value = plainValue(hooksFile.parseSettings(hooksDialect(spec), text, file));
	const rest = isRecord(value)
		? Object.fromEntries(Object.entries(value).filter(([key]) => !spec.stamp?.[key]))
		: value;
	return sameJson(rest, {});
}

const WRAP = '{"hooks":';

function isEventMap(spec: HooksInstall, file: string): boolean {
	return spec.eventMapFile !== undefined && path.basename(file) === spec.eventMapFile;
}

/** An event-map file edited as `{"hooks":<file>}`. */
function edited(
	spec: HooksInstall,
	file: string,
	text: string,
	edit: (wrapped: string) => hooksFile.SettingsEditResult,
): hooksFile.SettingsEditResult {
	if (!isEventMap(spec, file)) return edit(text);
	const result = edit(`${WRAP}${text.trim() === "" ? "{}" : text}}`);
	if (text.trim() !== "" && result.text.startsWith(WRAP) && result.text.endsWith("}")) {
		return { ...result, text: result.text.slice(WRAP.length, -1) };
	}
	// Written anew (a new file, or one of boulder's hooks alone): laid out as JSON.stringify does.
	const value = plainValue(hooksFile.parseSettings(hooksDialect(spec), result.text, file));
	const map = isRecord(value) && isRecord(value.hooks) ? value.hooks : {};
	return { ...result, text: `${JSON.stringify(map, null, 2)}\n` };
}

/** Boulder's entries in a file of its own; anything else in it is refused. */
function ownEntries(spec: HooksInstall, text: string, file: string): Array<OurCommand & { word: string }> {
	const notOurs = () => new BoulderError("settings-invalid", (spec.text.notOurs ?? spec.text.hooksNotObject)(file));
	let value: unknown;
	try {
		value = JSON.parse(text.replace(/^\uFEFF/, ""));
	} catch (error) {
		throw new BoulderError("settings-invalid", spec.text.notJson(file, messageOf(error)));
	}
	const hooks = isRecord(value) ? value.hooks : undefined;
	if (!isRecord(value) || (hooks !== undefined && !isRecord(hooks))) throw notOurs();
	const read = commandReader(spec.command);
	const found: Array<OurCommand & { word: string }> = [];
	for (const [event, entries] of Object.entries(hooks ?? {})) {
		if (!Array.isArray(entries)) throw notOurs();
		for (const entry of entries) {
			const ours = isRecord(entry) ? read(entry[spec.commandKey ?? "command"]) : null;
			if (ours === null) throw notOurs();
			found.push({ ...ours, event, word: ours.event });
		}
	}
	return found;
}

/** A harness's installer as functions of its own (for its tests and public surface). */
export function installerOf(spec: HooksInstall) {
	const dialect = () => hooksDialect(spec);
	return {
		install: (options: InstallOptions) => installHooks(spec, options),
		uninstall: (options: Place & { scope: string }) => uninstallHooks(spec, options),
		withOurHooks: (text: string, file: string, form: HookForm) => withOurHooks(spec, text, file, form),
		withoutOurHooks: (text: string, file: string) => withoutOurHooks(spec, text, file),
		ourEntries: (settings: unknown) => hooksFile.ourEntries(dialect(), settings),
		/** Contract: throws `BoulderError("settings-invalid")`. */
		parseSettings: (text: string, file: string) => hooksFile.parseSettings(dialect(), text, file),
		hooksObject: (form: HookForm) => hooksFile.hooksObject(dialect(), form),
		group: (form: HookForm, registration: HookRegistration) => dialect().group(form, registration),
	};
}
