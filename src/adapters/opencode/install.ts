/**
 * `boulder install opencode` / `boulder uninstall opencode`: boulder's plugin
 * added to (or taken out of) the `plugin` list of an OpenCode config file.
 *
 * - project: `<cwd>/opencode.json` (or `opencode.jsonc`), where OpenCode starts
 * - user:    `$XDG_CONFIG_HOME/opencode/opencode.json` (default `~/.config/opencode/`)
 *
 * The project file is committed, so its entry is the package name,
 * `"boulder-agent"`, which names no path of this machine. OpenCode 1.18 loads
 * a package-name plugin from its own package cache
 * (`$XDG_CACHE_HOME/opencode/packages/boulder-agent@latest/node_modules/boulder-agent`),
 * and only when nothing is there does it install `boulder-agent@latest` from
 * the npm registry; it never looks in the project's node_modules. So the
 * install also links that cache folder to this copy of boulder (a global
 * install, a devDependency, a clone): OpenCode then loads it without the
 * registry. A folder OpenCode downloaded itself is left alone.
 *
 * The user file stays on this machine and gets the absolute `file://` URL of
 * this copy's built plugin (`dist/adapters/opencode/plugin.js`), which needs
 * no cache and no registry.
 *
 * Entries of either shape are boulder's: uninstall removes exactly those, and
 * installing again replaces them (a moved clone, a newer boulder, the other
 * form) rather than adding a second one.
 *
 * The file is edited in place: comments, layout and the user's other settings
 * keep every byte (`jsonc.ts`, `settings-json.ts`). Nothing is written when
 * nothing changes; otherwise the old file is first copied to the user's state
 * folder (`config-file.ts`). A file the installer created goes again at
 * uninstall when nothing else was put in it. A file that cannot be parsed is
 * refused, never rewritten.
 */
import { existsSync, lstatSync, readlinkSync } from "node:fs";
import { mkdir, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Node } from "jsonc-parser";
import { BoulderError } from "../../core/errors.js";
import {
	PACKAGE_NAME,
	packageRoot,
	readConfigText,
	sameJson,
	samePath,
	writeConfigText,
	writeOrRemoveConfig,
} from "../shared/config-file.js";
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
} from "../shared/settings-json.js";
import { isRecord } from "./event-read.js";
import { appendElement, hasComment, removeElement } from "./jsonc.js";
import { INSTALL_TEXT } from "./messages.js";

export const INSTALL_SCOPES = ["project", "user"] as const;
export type InstallScope = (typeof INSTALL_SCOPES)[number];

/** Where the built plugin sits inside boulder's package. */
export const PLUGIN_FILE = path.join("dist", "adapters", "opencode", "plugin.js");
const PLUGIN_SUFFIX = "/dist/adapters/opencode/plugin.js";

export { PACKAGE_NAME };

const CONFIG_NAMES = ["opencode.json", "opencode.jsonc"] as const;
const SCHEMA_URL = "https://opencode.ai/config.json";

export interface Place {
	cwd: string;
	env: NodeJS.ProcessEnv;
}

/** The folder of the scope's config: the project folder, or OpenCode's user config folder. */
export function configDir(scope: InstallScope, place: Place): string {
	if (scope === "project") return place.cwd;
	const base = place.env.XDG_CONFIG_HOME || path.join(place.env.HOME || os.homedir(), ".config");
	return path.join(base, "opencode");
}

/** The scope's config files that exist (`opencode.json`, `opencode.jsonc`). */
export function existingConfigFiles(scope: InstallScope, place: Place): string[] {
	const dir = configDir(scope, place);
	return CONFIG_NAMES.map((name) => path.join(dir, name)).filter((file) => existsSync(file));
}

/** The pinned plugin entry for this copy of boulder: the `file://` URL of its built plugin. */
export function pluginEntry(root: string = packageRoot()): string {
	return pathToFileURL(path.join(root, PLUGIN_FILE)).href;
}

/** The entry a scope gets: the package name for the committed project file, this copy's path for the user's. */
export function entryFor(scope: InstallScope, root: string = packageRoot()): string {
	return scope === "project" ? PACKAGE_NAME : pluginEntry(root);
}

/**
 * Where OpenCode looks for a package-name entry before it asks the registry:
 * `<cache>/opencode/packages/<spec>/node_modules/<name>`, the spec being
 * `boulder-agent@latest` for a bare name.
 */
export function cachedPackageFolder(env: NodeJS.ProcessEnv, spec: string = PACKAGE_NAME): string {
	const base = env.XDG_CACHE_HOME || path.join(env.HOME || os.homedir(), ".cache");
	const folder = spec.includes("@", 1) ? spec : `${spec}@latest`;
	return path.join(base, "opencode", "packages", folder, "node_modules", PACKAGE_NAME);
}

export type CacheLink =
	| { kind: "linked"; folder: string; target: string }
	| { kind: "downloaded"; folder: string }
	| { kind: "unchanged"; folder: string; target: string };

/**
 * Points OpenCode's package cache for `boulder-agent` at `root`: a symlink
 * (a junction on Windows). An earlier link is replaced; a folder OpenCode
 * downloaded from the registry is left as it is.
 */
export async function linkOpenCodeCache(env: NodeJS.ProcessEnv, root: string): Promise<CacheLink> {
	const folder = cachedPackageFolder(env);
	let link: string | null = null;
	try {
		const stats = lstatSync(folder);
		if (!stats.isSymbolicLink()) return { kind: "downloaded", folder };
		link = readlinkSync(folder);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
	}
	if (link !== null && samePath(path.resolve(path.dirname(folder), link), root)) {
		return { kind: "unchanged", folder, target: root };
	}
	await mkdir(path.dirname(folder), { recursive: true });
	if (link !== null) await rm(folder, { force: true });
	await symlink(root, folder, "junction");
	return { kind: "linked", folder, target: root };
}

/** The plugin file an entry names, when it is one of boulder's path entries; null otherwise. */
export function ourPluginPath(entry: unknown): string | null {
	const spec = Array.isArray(entry) ? entry[0] : entry;
	if (typeof spec !== "string") return null;
	let file: string;
	if (spec.startsWith("file:")) {
		try {
			file = fileURLToPath(spec);
		} catch {
			// Not a usable file URL: OpenCode cannot load it either, and it is not boulder's.
			return null;
		}
	} else if (path.isAbsolute(spec)) {
		file = spec;
	} else {
		return null;
	}
	return file.split(path.sep).join("/").endsWith(PLUGIN_SUFFIX) ? file : null;
}

/** Whether an entry loads boulder by package name (`boulder-agent`, `boulder-agent@1.2.3`). */
export function isPackageEntry(entry: unknown): boolean {
	const spec = Array.isArray(entry) ? entry[0] : entry;
	return typeof spec === "string" && (spec === PACKAGE_NAME || spec.startsWith(`${PACKAGE_NAME}@`));
}

export interface InstallOptions extends Place {
	scope: InstallScope;
	/** The entry to write; defaults to the scope's (`entryFor`). */
	entry?: string;
	/** The copy of boulder the entry loads; defaults to this one. */
	root?: string;
	now?: () => Date;
}

export interface OpenCodeInstallResult {
	report: InstallReport;
	/** What the user should know about the entry written (printed after a fresh install). */
	notes: string[];
}

export type { InstallReport } from "../shared/install-report.js";

export async function installOpenCode(options: InstallOptions): Promise<InstallReport> {
	return (await installOpenCodeWithNotes(options)).report;
}

export async function installOpenCodeWithNotes(options: InstallOptions): Promise<OpenCodeInstallResult> {
	const root = options.root ?? packageRoot();
	const entry = options.entry ?? entryFor(options.scope, root);
	const plugin = ourPluginPath(entry) ?? path.join(root, PLUGIN_FILE);
	if (!existsSync(plugin)) throw new BoulderError("not-found", INSTALL_TEXT.noBundle(plugin));
	const file = await targetFile(options);
	const original = await readConfigText(file);
	const edit = withOurPlugin(original ?? "", file, entry);
	const notes: string[] = [];
	if (isPackageEntry(entry)) {
		const link = await linkOpenCodeCache(options.env, root);
		notes.push(
			link.kind === "downloaded" ? INSTALL_TEXT.byNameDownloaded(link.folder) : INSTALL_TEXT.byName(link.folder, root),
		);
	} else {
		notes.push(INSTALL_TEXT.machineLocal);
	}
	if (!edit.changed) return { report: { file, action: "unchanged", backup: null, entries: 0 }, notes };
	const backup = await writeConfigText(file, original, edit.text, options);
	return { report: { file, action: edit.removed > 0 ? "updated" : "installed", backup, entries: edit.added }, notes };
}

export async function uninstallOpenCode(options: InstallOptions): Promise<InstallReport> {
	const files = existingConfigFiles(options.scope, options);
	for (const file of files) {
		const original = await readConfigText(file);
		if (original === null) continue;
		const edit = withoutOurPlugin(original, file);
		if (edit.removed === 0) continue;
		const left = readConfig(edit.text, file);
		const empty = sameJson(left, {}) || sameJson(left, { $schema: SCHEMA_URL });
		const { backup } = await writeOrRemoveConfig(file, original, edit.text, empty, options);
		return { file, action: "removed", backup, entries: edit.removed };
	}
	const file = files[0] ?? path.join(configDir(options.scope, options), CONFIG_NAMES[0]);
	return { file, action: "absent", backup: null, entries: 0 };
}

/** The file to install into: one that already has boulder, else an existing one, else a new `opencode.json`. */
async function targetFile(options: InstallOptions): Promise<string> {
	const files = existingConfigFiles(options.scope, options);
	for (const file of files) {
		const text = await readConfigText(file);
		if (text !== null && ourEntries(readConfig(text, file)).length > 0) return file;
	}
	return files[0] ?? path.join(configDir(options.scope, options), CONFIG_NAMES[0]);
}

export interface ConfigEditResult {
	text: string;
	changed: boolean;
	added: number;
	removed: number;
}

/**
 * Pure: the config text with exactly one boulder entry, `entry`, in the
 * `plugin` list (added last). When it is there already, the text comes back
 * unchanged.
 *
 * Contract: throws `BoulderError("settings-invalid")` for text that is not a
 * JSON(C) object, or whose `plugin` is not a list.
 */
export function withOurPlugin(text: string, file: string, entry: string): ConfigEditResult {
	if (text.trim() === "") {
		const fresh = `${JSON.stringify({ $schema: SCHEMA_URL, plugin: [entry] }, null, 2)}\n`;
		return { text: fresh, changed: true, added: 1, removed: 0 };
	}
	const before = plainValue(parseConfig(text, file)) as Record<string, unknown>;
	const list = Array.isArray(before.plugin) ? before.plugin : [];
	const ours = list.filter(isOurs);
	if (ours.length === 1 && ours[0] === entry) return { text, changed: false, added: 0, removed: 0 };
	const cleared = removeOurs(text, file, false);
	const root = parseConfig(cleared.text, file);
	const plugin = memberOf(root, "plugin");
	const next =
		plugin?.type === "array"
			? appendElement(cleared.text, plugin, () => JSON.stringify(entry), appendItemEdit(cleared.text, plugin, entry))
			: appendElement(
					cleared.text,
					root,
					(layout) =>
						`"plugin": [${layout.eol}${layout.indent}${layout.unit}${JSON.stringify(entry)}${layout.eol}${layout.indent}]`,
					addMemberEdit(cleared.text, root, "plugin", [entry]),
				);
	const others = list.filter((item) => !isOurs(item));
	verify(next, { ...before, plugin: [...others, entry] }, file);
	return { text: next, changed: next !== text, added: 1, removed: cleared.removed };
}

/**
 * Pure: the config text without boulder's entries (and without `plugin` when
 * nothing else, not even a comment, is left in it); everything else byte for byte.
 */
export function withoutOurPlugin(text: string, file: string): ConfigEditResult {
	if (text.trim() === "") return { text, changed: false, added: 0, removed: 0 };
	const before = plainValue(parseConfig(text, file)) as Record<string, unknown>;
	const result = removeOurs(text, file, true);
	if (result.removed > 0) {
		const list = (Array.isArray(before.plugin) ? before.plugin : []).filter((item) => !isOurs(item));
		const after = plainValue(parseConfig(result.text, file)) as Record<string, unknown>;
		const { plugin: _, ...rest } = before;
		verify(result.text, "plugin" in after || list.length > 0 ? { ...before, plugin: list } : rest, file);
	}
	return result;
}

export interface OurEntry {
	entry: unknown;
	/** The plugin file a path entry names; null for a package-name entry. */
	file: string | null;
}

/** Whether a `plugin` entry loads boulder: by the path of its built plugin or by package name. */
export function isOurs(entry: unknown): boolean {
	return ourPluginPath(entry) !== null || isPackageEntry(entry);
}

/** boulder's entries in a config value: path entries (with the file they name) and package-name entries. */
export function ourEntries(config: unknown): OurEntry[] {
	const list: unknown[] = isRecord(config) && Array.isArray(config.plugin) ? config.plugin : [];
	return list.flatMap((entry): OurEntry[] => {
		const file = ourPluginPath(entry);
		if (file !== null) return [{ entry, file }];
		return isPackageEntry(entry) ? [{ entry, file: null }] : [];
	});
}

/** Parses a config file's text into its value. Contract: throws `BoulderError("settings-invalid")`. */
export function readConfig(text: string, file: string): unknown {
	return plainValue(parseConfig(text, file));
}

function removeOurs(text: string, file: string, dropEmptyList: boolean): ConfigEditResult {
	let next = text;
	let removed = 0;
	for (;;) {
		const root = parseConfig(next, file);
		const index = elementsOf(root).findLastIndex((member) => keyOf(member) === "plugin");
		const plugin = memberValue(elementsOf(root)[index]);
		if (plugin?.type !== "array") break;
		const at = elementsOf(plugin).findIndex((item) => isOurs(plainValue(item)));
		if (at === -1) break;
		const dropList = dropEmptyList && elementsOf(plugin).length === 1 && !hasComment(next, plugin);
		next = dropList ? removeElement(next, root, index) : removeElement(next, plugin, at);
		removed++;
	}
	return { text: next, changed: removed > 0, added: 0, removed };
}

function parseConfig(text: string, file: string): Node {
	let root: Node;
	try {
		root = parseJsonTree(text, "jsonc");
	} catch (error) {
		if (error instanceof JsonSyntaxError) {
			throw new BoulderError("settings-invalid", INSTALL_TEXT.notJson(file, error.message));
		}
		throw error;
	}
	if (root.type !== "object") {
		const what = root.type === "array" ? "a list" : `the value ${JSON.stringify(plainValue(root))}`;
		throw new BoulderError("settings-invalid", INSTALL_TEXT.notObject(file, what));
	}
	const plugin = memberOf(root, "plugin");
	if (plugin && plugin.type !== "array") throw new BoulderError("settings-invalid", INSTALL_TEXT.notList(file));
	return root;
}

/** The edit must give exactly the intended config: a guard against a bug writing a damaged file. */
function verify(text: string, expected: unknown, file: string): void {
	if (!sameJson(plainValue(parseConfig(text, file)), expected)) {
		throw new BoulderError(
			"internal",
			`editing ${file} went wrong (the result differs from the intent); nothing written`,
		);
	}
}
