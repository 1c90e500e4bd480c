/**
 * `boulder install opencode` / `boulder uninstall opencode`: boulder's plugin
 * added to (or taken out of) the `plugin` list of an OpenCode config file.
 * `boulder install kilo` does the same for Kilo Code, OpenCode's fork: its
 * files and folders are the host's data (`host.ts`), the code is this.
 *
 * - project: `<cwd>/opencode.json` (or `opencode.jsonc`), where OpenCode starts
 *   (Kilo: `kilo.json`, or an existing `kilo.jsonc`, `.kilo/kilo.json(c)`)
 * - user:    `$XDG_CONFIG_HOME/opencode/opencode.json` (default `~/.config/opencode/`)
 *   (Kilo: `$XDG_CONFIG_HOME/kilo/kilo.jsonc`, which Kilo itself creates)
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
 * this copy's built plugin (`dist/adapters/opencode/plugin.js`; Kilo's
 * `kilo-plugin.js`), which needs no cache and no registry. An entry naming
 * either file is boulder's in either host.
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
import { KILO_HOST, OPENCODE_HOST, type PluginHost } from "./host.js";
import { appendElement, hasComment, removeElement } from "./jsonc.js";
import { installText } from "./messages.js";

export const INSTALL_SCOPES = ["project", "user"] as const;
export type InstallScope = (typeof INSTALL_SCOPES)[number];

/** Where the built plugin sits inside boulder's package (OpenCode's; Kilo's is `host.pluginFile`). */
export const PLUGIN_FILE = pluginFileOf(OPENCODE_HOST);
/** Every built plugin file of boulder's: an entry naming any of them is boulder's, in either host. */
const PLUGIN_SUFFIXES = [OPENCODE_HOST, KILO_HOST].map((host) => `/${host.pluginFile}`);

export { PACKAGE_NAME };

/** What the pure edits need to know of the host: the schema of a new file, and its name in messages. */
type Host = Pick<PluginHost, "schemaUrl" | "title">;

export interface Place {
	cwd: string;
	env: NodeJS.ProcessEnv;
	/** The harness whose config this is: OpenCode unless told. */
	host?: PluginHost;
}

function pluginFileOf(host: PluginHost): string {
	return path.join(...host.pluginFile.split("/"));
}

/** The folder of the scope's config: the project folder, or the host's user config folder. */
export function configDir(scope: InstallScope, place: Place): string {
	if (scope === "project") return place.cwd;
	const base = place.env.XDG_CONFIG_HOME || path.join(place.env.HOME || os.homedir(), ".config");
	return path.join(base, (place.host ?? OPENCODE_HOST).folder);
}

/** The scope's config files that exist (`opencode.json`, `opencode.jsonc`; Kilo's `kilo.json(c)`, `.kilo/kilo.json(c)`). */
export function existingConfigFiles(scope: InstallScope, place: Place): string[] {
	return configFiles(scope, place).filter((file) => existsSync(file));
}

/** Every config file of the scope the host reads; a new one is the first. */
function configFiles(scope: InstallScope, place: Place): string[] {
	const host = place.host ?? OPENCODE_HOST;
	const dir = configDir(scope, place);
	const names = scope === "project" ? host.projectConfigs : host.userConfigs;
	return names.map((name) => path.join(dir, ...name.split("/")));
}

/** The pinned plugin entry for this copy of boulder: the `file://` URL of its built plugin for the host. */
export function pluginEntry(root: string = packageRoot(), host: PluginHost = OPENCODE_HOST): string {
	return pathToFileURL(path.join(root, pluginFileOf(host))).href;
}

/** The entry a scope gets: the package name for the committed project file, this copy's path for the user's. */
export function entryFor(scope: InstallScope, root: string = packageRoot(), host: PluginHost = OPENCODE_HOST): string {
	return scope === "project" ? PACKAGE_NAME : pluginEntry(root, host);
}

/**
 * Where OpenCode looks for a package-name entry before it asks the registry:
 * `<cache>/opencode/packages/<spec>/node_modules/<name>`, the spec being
 * `boulder-agent@latest` for a bare name (Kilo: `<cache>/kilo/packages/…`).
 */
export function cachedPackageFolder(
	env: NodeJS.ProcessEnv,
	spec: string = PACKAGE_NAME,
	host: PluginHost = OPENCODE_HOST,
): string {
	const base = env.XDG_CACHE_HOME || path.join(env.HOME || os.homedir(), ".cache");
	const folder = spec.includes("@", 1) ? spec : `${spec}@latest`;
	return path.join(base, host.folder, "packages", folder, "node_modules", PACKAGE_NAME);
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
export async function linkOpenCodeCache(
	env: NodeJS.ProcessEnv,
	root: string,
	host: PluginHost = OPENCODE_HOST,
): Promise<CacheLink> {
	const folder = cachedPackageFolder(env, PACKAGE_NAME, host);
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
	const slashed = file.split(path.sep).join("/");
	return PLUGIN_SUFFIXES.some((suffix) => slashed.endsWith(suffix)) ? file : null;
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
	const host = options.host ?? OPENCODE_HOST;
	const text = installText(host);
	const root = options.root ?? packageRoot();
	const entry = options.entry ?? entryFor(options.scope, root, host);
	const plugin = ourPluginPath(entry) ?? path.join(root, pluginFileOf(host));
	if (!existsSync(plugin)) throw new BoulderError("not-found", text.noBundle(plugin));
	const file = await targetFile(options);
	const original = await readConfigText(file);
	const edit = withOurPlugin(original ?? "", file, entry, host);
	const notes: string[] = [];
	if (isPackageEntry(entry)) {
		const link = await linkOpenCodeCache(options.env, root, host);
		notes.push(link.kind === "downloaded" ? text.byNameDownloaded(link.folder) : text.byName(link.folder, root));
	} else {
		notes.push(text.machineLocal);
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
		const host = options.host ?? OPENCODE_HOST;
		const edit = withoutOurPlugin(original, file, host);
		if (edit.removed === 0) continue;
		const left = readConfig(edit.text, file, host);
		const empty = sameJson(left, {}) || sameJson(left, { $schema: host.schemaUrl });
		const { backup } = await writeOrRemoveConfig(file, original, edit.text, empty, options);
		return { file, action: "removed", backup, entries: edit.removed };
	}
	const file = files[0] ?? (configFiles(options.scope, options)[0] as string);
	return { file, action: "absent", backup: null, entries: 0 };
}

/** The file to install into: one that already has boulder, else an existing one, else a new one (`opencode.json`). */
async function targetFile(options: InstallOptions): Promise<string> {
	const files = existingConfigFiles(options.scope, options);
	for (const file of files) {
		const text = await readConfigText(file);
		if (text !== null && ourEntries(readConfig(text, file, options.host)).length > 0) return file;
	}
	return files[0] ?? (configFiles(options.scope, options)[0] as string);
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
export function withOurPlugin(text: string, file: string, entry: string, host: Host = OPENCODE_HOST): ConfigEditResult {
	if (text.trim() === "") {
		const fresh = `${JSON.stringify({ $schema: host.schemaUrl, plugin: [entry] }, null, 2)}\n`;
		return { text: fresh, changed: true, added: 1, removed: 0 };
	}
	const before = plainValue(parseConfig(text, file, host)) as Record<string, unknown>;
	const list = Array.isArray(before.plugin) ? before.plugin : [];
	const ours = list.filter(isOurs);
	if (ours.length === 1 && ours[0] === entry) return { text, changed: false, added: 0, removed: 0 };
	const cleared = removeOurs(text, file, false, host);
	const root = parseConfig(cleared.text, file, host);
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
	verify(next, { ...before, plugin: [...others, entry] }, file, host);
	return { text: next, changed: next !== text, added: 1, removed: cleared.removed };
}

/**
 * Pure: the config text without boulder's entries (and without `plugin` when
 * nothing else, not even a comment, is left in it); everything else byte for byte.
 */
export function withoutOurPlugin(text: string, file: string, host: Host = OPENCODE_HOST): ConfigEditResult {
	if (text.trim() === "") return { text, changed: false, added: 0, removed: 0 };
	const before = plainValue(parseConfig(text, file, host)) as Record<string, unknown>;
	const result = removeOurs(text, file, true, host);
	if (result.removed > 0) {
		const list = (Array.isArray(before.plugin) ? before.plugin : []).filter((item) => !isOurs(item));
		const after = plainValue(parseConfig(result.text, file, host)) as Record<string, unknown>;
		const { plugin: _, ...rest } = before;
		verify(result.text, "plugin" in after || list.length > 0 ? { ...before, plugin: list } : rest, file, host);
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
export function readConfig(text: string, file: string, host: Host = OPENCODE_HOST): unknown {
	return plainValue(parseConfig(text, file, host));
}

function removeOurs(text: string, file: string, dropEmptyList: boolean, host: Host): ConfigEditResult {
	let next = text;
	let removed = 0;
	for (;;) {
		const root = parseConfig(next, file, host);
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

function parseConfig(text: string, file: string, host: Host): Node {
	const words = installText(host);
	let root: Node;
	try {
		root = parseJsonTree(text, "jsonc");
	} catch (error) {
		if (error instanceof JsonSyntaxError) {
			throw new BoulderError("settings-invalid", words.notJson(file, error.message));
		}
		throw error;
	}
	if (root.type !== "object") {
		const what = root.type === "array" ? "a list" : `the value ${JSON.stringify(plainValue(root))}`;
		throw new BoulderError("settings-invalid", words.notObject(file, what));
	}
	const plugin = memberOf(root, "plugin");
	if (plugin && plugin.type !== "array") throw new BoulderError("settings-invalid", words.notList(file));
	return root;
}

/** The edit must give exactly the intended config: a guard against a bug writing a damaged file. */
function verify(text: string, expected: unknown, file: string, host: Host): void {
	if (!sameJson(plainValue(parseConfig(text, file, host)), expected)) {
		throw new BoulderError(
			"internal",
			`editing ${file} went wrong (the result differs from the intent); nothing written`,
		);
	}
}
