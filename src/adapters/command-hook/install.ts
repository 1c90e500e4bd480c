/**
 * The command-hook family's installer, once for every harness: `boulder
 * install <harness>` merges boulder's hooks into (and `uninstall` takes them
 * out of) one of the harness's files, and a harness says only what is its
 * own, as data (`HooksInstall`): where its files live per scope, how its
 * hook command is spelled, what one entry looks like, how its file is laid
 * out, and its words.
 *
 * The guarantees are the same for all: the project scope gets the portable
 * command (`shared/portable-command.ts`, no path of this machine), the others
 * are pinned to this node and this copy's hook program; the file is edited in
 * place (`shared/hooks-file.ts`) so the user's other settings and hooks keep
 * every byte; installing again replaces boulder's entries; nothing is written
 * when nothing changes; the old file is first copied to the user's state
 * folder (`shared/config-file.ts`); a file the installer created goes again
 * at uninstall when nothing else was put in it; a file that is not what the
 * harness reads is refused, never rewritten.
 *
 * Three layouts: a settings object whose `hooks` member holds the event map
 * (Claude Code, Codex, Qwen Code, Gemini CLI, and Droid's `settings.json`);
 * a file that is the event map itself (Droid's `hooks.json`: edited as
 * `{"hooks":<file>}`, every byte outside boulder's entries kept); and a file
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
import type { hooksInstallText } from "../shared/install-messages.js";
import type { InstallReport } from "../shared/install-report.js";
import { type JsonDialect, plainValue } from "../shared/settings-json.js";
import type { HookRegistration } from "./registrations.js";
import { type CommandSpelling, commandReader, hookCommand } from "./spelling.js";

export type { CommandSpelling } from "./spelling.js";

export interface Place {
	cwd: string;
	env: NodeJS.ProcessEnv;
}

export type HooksText = ReturnType<typeof hooksInstallText> & { notOurs?: (file: string) => string };

/** What `notes` is told after an install. */
export interface Installed {
	form: HookForm;
	/** The user's link the install wrote, or null. */
	link: string | null;
	root: string;
	file: string;
	options: InstallOptions;
}

/** What is true of one harness's install alone: the rest is this file's. */
export interface HooksInstall {
	harness: string;
	/**
	 * Where its files are, per scope, in the order `boulder doctor` and
	 * `installedScopes` go through them: the file that holds boulder's hooks,
	 * or the files that may, the one it installs into first (see `fileFor`).
	 */
	where: Readonly<Record<string, (place: Place) => string | readonly string[]>>;
	registrations: readonly HookRegistration[];
	command: CommandSpelling;
	/** One hook entry, as the file holds it; by default `{type: "command", command, timeout}`. */
	entry?(command: string, registration: HookRegistration): Record<string, unknown>;
	/** The key of an entry's command, where it is not `command` (Copilot CLI's `bash`). */
	commandKey?: string;
	/** `own`: a file of boulder's alone (Copilot CLI); `settings` (the default): a settings object with `hooks`. */
	layout?: "settings" | "own";
	/**
	 * A file of this name is the event map itself, and the harness reads it
	 * in place of the scope's settings file's hooks (Droid's `hooks.json`).
	 */
	eventMapFile?: string;
	syntax?: JsonDialect;
	/** What a new settings file starts with besides `hooks`, and what alone does not keep a file at uninstall (Qwen Code's `$version`). */
	stamp?: Record<string, unknown>;
	text: HooksText;
	/** What the user is told after the install: which form, and what else they need to know. */
	notes(installed: Installed): string[] | Promise<string[]>;
	/** A harness's own edit of the same file after boulder's hooks (Claude Code's todo tools, Qwen Code's cap), and what it says. */
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
	/** The same, under its older name. */
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

/** The form a scope gets: portable for the committed project file, pinned for the files that stay on this machine. */
export function formFor(scope: string, root: string = packageRoot(), bundle?: string): HookForm {
	if (scope === "project") return PORTABLE;
	const program = { node: process.execPath, bundle: path.join(root, bundle ?? ""), version: packageVersion(root) };
	// Written for this machine: its harnesses run hook commands in POSIX sh everywhere but on Windows.
	return process.platform === "win32" ? program : { ...program, shell: "sh" };
}

const DIALECTS = new WeakMap<HooksInstall, hooksFile.HooksDialect<HookForm, OurCommand, HookRegistration>>();

/** The harness's hooks as the shared hooks-file editor reads and writes them. */
export function hooksDialect(spec: HooksInstall): hooksFile.HooksDialect<HookForm, OurCommand, HookRegistration> {
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
	return spec.entry?.(command, registration) ?? { type: "command", command, timeout: registration.timeout };
}

/** The whole text of a file of boulder's own (Copilot CLI's): every registration, one entry each. */
export function ownFileText(spec: HooksInstall, form: HookForm): string {
	const hooks: Record<string, unknown[]> = {};
	for (const registration of spec.registrations) {
		hooks[registration.event] = [...(hooks[registration.event] ?? []), entryOf(spec, form, registration)];
	}
	return `${JSON.stringify({ version: 1, hooks }, null, 2)}\n`;
}

/**
 * Boulder's entries in a file's text, with the event each is under.
 * Contract: throws `BoulderError("settings-invalid")` for a file the harness
 * would not read (or, for a file of boulder's own, one holding anyone else's hooks).
 */
export function entriesIn(spec: HooksInstall, text: string, file: string): Array<OurCommand & { word: string }> {
	if (spec.layout === "own") return ownEntries(spec, text, file);
	return hooksFile.ourEntries(hooksDialect(spec), valueIn(spec, text, file));
}

/** The file's value, as a settings object (an event-map file seen as `{"hooks": …}`). */
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
 * The scope's file for an install: the first. A harness with an event-map
 * file reads a scope's settings file's hooks only when there is no event-map
 * file, so the settings file gets them when it keeps hooks already and there
 * is none (creating one would silence them).
 */
export async function fileFor(spec: HooksInstall, scope: string, place: Place): Promise<string> {
	const [first, settings] = filesOf(spec, scope, place) as [string, string | undefined];
	if (spec.eventMapFile === undefined || settings === undefined || existsSync(first)) return first;
	const text = await readConfigText(settings);
	const value = text === null || text.trim() === "" ? null : valueIn(spec, text, settings);
	return isRecord(value) && "hooks" in value ? settings : first;
}

/** The event-map file beside `file` that the harness reads instead of it, or null (see `fileFor`). */
export function shadowedBy(spec: HooksInstall, file: string): string | null {
	if (spec.eventMapFile === undefined || isEventMap(spec, file)) return null;
	const map = path.join(path.dirname(file), spec.eventMapFile);
	return existsSync(map) ? map : null;
}

export async function installHooks(spec: HooksInstall, options: InstallOptions): Promise<InstallResult> {
	const root = options.root ?? packageRoot();
	const form = options.form ?? options.program ?? formFor(options.scope, root, spec.command.bundle);
	const bundle = isPortable(form) ? path.join(root, spec.command.bundle) : form.bundle;
	if (!existsSync(bundle)) throw new BoulderError("not-found", spec.text.noBundle(bundle));
	const file = await fileFor(spec, options.scope, options);
	const original = await readConfigText(file);
	// A file of boulder's own that holds anyone else's hooks is refused before anything is written.
	if (spec.layout === "own" && original !== null) entriesIn(spec, original, file);
	const hooks = withOurHooks(spec, original ?? "", file, form);
	const also = (await spec.alsoEdit?.(hooks.text, file, options)) ?? { text: hooks.text, changed: false };
	const link = isPortable(form) && spec.command.link ? await linkForUser(options, spec.command.link, bundle) : null;
	const notes = [...(await spec.notes({ form, link, root, file, options })), ...(also.notes ?? [])];
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

/** The scopes whose files hold boulder's hooks now (only reads). */
export async function installedScopes(spec: HooksInstall, place: Place) {
	const { scopesHolding } = await import("../shared/installed-scopes.js");
	return scopesHolding(
		Object.keys(spec.where),
		(scope) => filesOf(spec, scope, place),
		(text, file) => entriesIn(spec, text, file).length > 0,
	);
}

/** The files of a scope (none for a scope the harness does not have). */
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

/** An event-map file edited as `{"hooks":<file>}`: the file is what is between. */
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
	// The map was written anew (a new file, or one that held boulder's hooks alone): as JSON.stringify lays it out.
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

/** A harness's installer as functions of its own (its tests and its public surface call them). */
export function installerOf(spec: HooksInstall) {
	const dialect = () => hooksDialect(spec);
	return {
		install: (options: InstallOptions) => installHooks(spec, options),
		uninstall: (options: Place & { scope: string }) => uninstallHooks(spec, options),
		/** Pure: the text with exactly boulder's hooks for `form`; the same bytes when they are there already. */
		withOurHooks: (text: string, file: string, form: HookForm) => withOurHooks(spec, text, file, form),
		/** Pure: the text without boulder's hook entries; everything else byte for byte. */
		withoutOurHooks: (text: string, file: string) => withoutOurHooks(spec, text, file),
		/** Our entries, read back from a settings value: one per command of ours, with its event, word and form. */
		ourEntries: (settings: unknown) => hooksFile.ourEntries(dialect(), settings),
		/** Parses settings text (a byte order mark allowed). Contract: throws `BoulderError("settings-invalid")`. */
		parseSettings: (text: string, file: string) => hooksFile.parseSettings(dialect(), text, file),
		/** Every event's groups: the value of a settings file's `hooks`. */
		hooksObject: (form: HookForm) => hooksFile.hooksObject(dialect(), form),
		group: (form: HookForm, registration: HookRegistration) => dialect().group(form, registration),
	};
}
