/**
 * `boulder install pi` / `boulder uninstall pi`: boulder's extension added to
 * (or taken out of) the `extensions` list of a pi settings file.
 *
 * - project: `<cwd>/.pi/settings.json`, whose paths pi resolves from `.pi/`
 * - user:    `$PI_CODING_AGENT_DIR/settings.json` (default `~/.pi/agent/`)
 *
 * The entry is the path of this copy's built extension
 * (`dist/adapters/pi/extension.js`). In a project that holds boulder (a
 * devDependency in its node_modules, or boulder's own clone) the project
 * entry is relative to `.pi/`, so the committed file names no path of this
 * machine and works for every teammate who installs boulder-agent; anywhere
 * else it is absolute, and the install says so.
 *
 * Entries whose path ends in boulder's extension are boulder's: uninstall
 * removes exactly those, and installing again replaces them (a moved clone, a
 * newer boulder) rather than adding a second one. The file is edited in
 * place, every other byte kept (`settings-json.ts`); nothing is written when
 * nothing changes; otherwise the old file is first copied to the user's state
 * folder (`config-file.ts`). A file the installer created goes again at
 * uninstall when nothing else was put in it. A file that cannot be parsed is
 * refused, never rewritten.
 */
import { existsSync, realpathSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { applyEdits, type Node } from "jsonc-parser";
import { BoulderError } from "../../core/errors.js";
import { packageRoot, readConfigText, sameJson, writeConfigText, writeOrRemoveConfig } from "../shared/config-file.js";
import type { InstallReport } from "../shared/install-report.js";
import { isRecord } from "../shared/loose.js";
import {
	addMemberEdit,
	appendItemEdit,
	elementsOf,
	JsonSyntaxError,
	keyOf,
	memberOf,
	parseJsonTree,
	plainValue,
	removeElementEdit,
} from "../shared/settings-json.js";
import { INSTALL_TEXT } from "./messages.js";

export const INSTALL_SCOPES = ["project", "user"] as const;
export type InstallScope = (typeof INSTALL_SCOPES)[number];

/** Where the built extension sits inside boulder's package. */
export const EXTENSION_FILE = path.join("dist", "adapters", "pi", "extension.js");
const EXTENSION_SUFFIX = "dist/adapters/pi/extension.js";

export interface Place {
	cwd: string;
	env: NodeJS.ProcessEnv;
}

export interface InstallOptions extends Place {
	scope: InstallScope;
	/** The copy of boulder the entry loads; defaults to this one. */
	root?: string;
	now?: () => Date;
}

/**
 * pi's user folder, found as pi finds it (`docs/pi-notes.md`): `$PI_CODING_AGENT_DIR` (empty is unset; `~` and a
 * leading `~/` are the home folder; a `file://` URL is its path; else made absolute against the working folder),
 * else `~/.pi/agent`. Contract: a `file:` URL that names no local path is refused with a `usage` error (pi stops on it).
 */
export function agentDir(env: NodeJS.ProcessEnv): string {
	const home = env.HOME || os.homedir();
	const own = env.PI_CODING_AGENT_DIR;
	if (!own) return path.join(home, ".pi", "agent");
	if (own === "~") return home;
	if (own.startsWith("~/")) return path.join(home, own.slice(2));
	if (!/^file:\/\//.test(own)) return path.resolve(own);
	try {
		return fileURLToPath(own);
	} catch (error) {
		throw new BoulderError(
			"usage",
			`PI_CODING_AGENT_DIR is a file URL that names no folder of this machine (${own}): ${(error as Error).message}`,
			{ cause: error },
		);
	}
}

/** The scope's settings file. */
export function settingsFile(scope: InstallScope, place: Place): string {
	return scope === "project"
		? path.join(place.cwd, ".pi", "settings.json")
		: path.join(agentDir(place.env), "settings.json");
}

/** The folder pi resolves the file's relative paths from: `.pi/` for a project, the agent folder for the user. */
function baseOf(file: string): string {
	return path.dirname(file);
}

/**
 * The entry a committed project file gets when the project does not hold
 * boulder: the same words on every machine, since pi reads `~` as the home
 * folder. It names a small per-user link (`linkText`) that each person's
 * `boulder install pi` points at their own copy of boulder.
 */
export const LINK_ENTRY = "~/.local/share/boulder/pi-extension.js";

/** Where `LINK_ENTRY` is on this machine. */
export function linkFile(env: NodeJS.ProcessEnv): string {
	return path.join(env.HOME || os.homedir(), ".local", "share", "boulder", "pi-extension.js");
}

const LINK_HEADER =
	"// Written by `boulder install pi`: pi projects that list ~/.local/share/boulder/pi-extension.js load this boulder.";

/** The link's text: it loads one copy of boulder's extension. */
export function linkText(extension: string): string {
	return `${LINK_HEADER}\nexport { default } from ${JSON.stringify(extension)};\n`;
}

/** The extension a link's text loads; null for text `linkText` did not write. */
export function linkTarget(text: string): string | null {
	const match = /^export \{ default \} from (".*");$/m.exec(text);
	if (!match?.[1]) return null;
	try {
		const target = JSON.parse(match[1]) as unknown;
		return typeof target === "string" ? target : null;
	} catch {
		return null;
	}
}

/**
 * The entry a scope gets: for a project, relative to `.pi/` when the project
 * holds this copy of boulder, otherwise `LINK_ENTRY` (never a path of this
 * machine in a committed file); for the user, the absolute path of the extension.
 */
export function entryFor(scope: InstallScope, place: Place, root: string = packageRoot()): string {
	const extension = path.join(root, EXTENSION_FILE);
	if (scope === "project") {
		const project = realpathOr(place.cwd);
		const inside = path.relative(project, realpathOr(root));
		if (!inside.startsWith("..") && !path.isAbsolute(inside)) {
			const relative = path.relative(path.join(project, ".pi"), path.join(project, inside, EXTENSION_FILE));
			return relative.split(path.sep).join("/");
		}
		return LINK_ENTRY;
	}
	return extension;
}

/** Whether an `extensions` entry loads boulder's extension (by any path to it, or through the user's link). */
export function isOurs(entry: unknown): boolean {
	return (
		typeof entry === "string" && (entry === LINK_ENTRY || entry.split(path.sep).join("/").endsWith(EXTENSION_SUFFIX))
	);
}

/** The file an entry names, resolved as pi resolves it from the settings file's folder (`~` is the home folder). */
export function entryPath(entry: string, file: string, env: NodeJS.ProcessEnv = process.env): string {
	if (entry === "~" || entry.startsWith("~/")) return path.join(env.HOME || os.homedir(), entry.slice(2));
	return path.isAbsolute(entry) ? entry : path.resolve(baseOf(file), entry);
}

export interface PiInstallResult {
	report: InstallReport;
	notes: string[];
}

export async function installPi(options: InstallOptions): Promise<PiInstallResult> {
	const root = options.root ?? packageRoot();
	const built = path.join(root, EXTENSION_FILE);
	if (!existsSync(built)) throw new BoulderError("not-found", INSTALL_TEXT.noBundle(built));
	const file = settingsFile(options.scope, options);
	const entry = entryFor(options.scope, options, root);
	const notes = path.isAbsolute(entry) ? [INSTALL_TEXT.machineLocal] : [INSTALL_TEXT.portable(entry)];
	if (entry === LINK_ENTRY) {
		const link = linkFile(options.env);
		const text = linkText(built);
		if ((await readConfigText(link)) !== text) {
			await mkdir(path.dirname(link), { recursive: true, mode: 0o700 });
			await writeFile(link, text, { mode: 0o644 });
		}
		notes[0] = INSTALL_TEXT.linked(link, built);
	}
	if (options.scope === "project") notes.push(INSTALL_TEXT.trust);
	const original = await readConfigText(file);
	const edit = withOurExtension(original ?? "", file, entry);
	if (!edit.changed) return { report: { file, action: "unchanged", backup: null, entries: 0 }, notes };
	const backup = await writeConfigText(file, original, edit.text, options);
	return { report: { file, action: edit.removed > 0 ? "updated" : "installed", backup, entries: 1 }, notes };
}

export async function uninstallPi(options: InstallOptions): Promise<InstallReport> {
	const file = settingsFile(options.scope, options);
	const original = await readConfigText(file);
	if (original === null) return { file, action: "absent", backup: null, entries: 0 };
	const edit = withoutOurExtension(original, file);
	if (edit.removed === 0) return { file, action: "absent", backup: null, entries: 0 };
	const empty = sameJson(readSettings(edit.text, file), {});
	const { backup } = await writeOrRemoveConfig(file, original, edit.text, empty, options);
	return { file, action: "removed", backup, entries: edit.removed };
}

export interface SettingsEditResult {
	text: string;
	changed: boolean;
	removed: number;
}

/**
 * Pure: the settings text with exactly one boulder entry, `entry`, last in
 * `extensions`. When it is there already, the text comes back unchanged.
 *
 * Contract: throws `BoulderError("settings-invalid")` for text that is not a
 * JSON object, or whose `extensions` is not a list.
 */
export function withOurExtension(text: string, file: string, entry: string): SettingsEditResult {
	if (text.trim() === "") {
		return { text: `${JSON.stringify({ extensions: [entry] }, null, 2)}\n`, changed: true, removed: 0 };
	}
	const before = readSettings(text, file) as Record<string, unknown>;
	const list = Array.isArray(before.extensions) ? before.extensions : [];
	const ours = list.filter(isOurs);
	if (ours.length === 1 && ours[0] === entry) return { text, changed: false, removed: 0 };
	const cleared = removeOurs(text, file, false);
	const root = parseSettings(cleared.text, file);
	const extensions = memberOf(root, "extensions");
	const next = applyEdits(cleared.text, [
		extensions
			? appendItemEdit(cleared.text, extensions, entry)
			: addMemberEdit(cleared.text, root, "extensions", [entry]),
	]);
	verify(next, { ...before, extensions: [...list.filter((item) => !isOurs(item)), entry] }, file);
	return { text: next, changed: next !== text, removed: cleared.removed };
}

/** Pure: the settings text without boulder's entries (and without `extensions` when it held only those). */
export function withoutOurExtension(text: string, file: string): SettingsEditResult {
	if (text.trim() === "") return { text, changed: false, removed: 0 };
	const before = readSettings(text, file) as Record<string, unknown>;
	const result = removeOurs(text, file, true);
	if (result.removed > 0) {
		const list = (Array.isArray(before.extensions) ? before.extensions : []).filter((item) => !isOurs(item));
		const { extensions: _, ...rest } = before;
		verify(result.text, list.length > 0 ? { ...before, extensions: list } : rest, file);
	}
	return result;
}

/** boulder's entries in a settings value. */
export function ourEntries(settings: unknown): string[] {
	const list: unknown[] = isRecord(settings) && Array.isArray(settings.extensions) ? settings.extensions : [];
	return list.filter((entry): entry is string => isOurs(entry));
}

/** Parses a settings file's text into its value. Contract: throws `BoulderError("settings-invalid")`. */
export function readSettings(text: string, file: string): unknown {
	return plainValue(parseSettings(text, file));
}

function removeOurs(text: string, file: string, dropEmptyList: boolean): SettingsEditResult {
	let next = text;
	let removed = 0;
	for (;;) {
		const root = parseSettings(next, file);
		const index = elementsOf(root).findLastIndex((member) => keyOf(member) === "extensions");
		const list = memberOf(root, "extensions");
		if (list?.type !== "array") break;
		const at = elementsOf(list).findIndex((item) => isOurs(plainValue(item)));
		if (at === -1) break;
		const dropList = dropEmptyList && elementsOf(list).length === 1;
		next = applyEdits(next, [dropList ? removeElementEdit(root, index) : removeElementEdit(list, at)]);
		removed++;
	}
	return { text: next, changed: removed > 0, removed };
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
	const extensions = memberOf(root, "extensions");
	if (extensions && extensions.type !== "array") {
		throw new BoulderError("settings-invalid", INSTALL_TEXT.notList(file));
	}
	return root;
}

/** The edit must give exactly the intended settings: a guard against a bug writing a damaged file. */
function verify(text: string, expected: unknown, file: string): void {
	if (!sameJson(readSettings(text, file), expected)) {
		throw new BoulderError(
			"internal",
			`editing ${file} went wrong (the result differs from the intent); nothing written`,
		);
	}
}

function realpathOr(folder: string): string {
	try {
		return realpathSync(folder);
	} catch {
		// A folder that does not exist yet is compared as written.
		return path.resolve(folder);
	}
}
