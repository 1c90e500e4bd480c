/**
 * `boulder install opencode` / `boulder uninstall opencode`: boulder's plugin
 * added to (or taken out of) the `plugin` list of an OpenCode config file.
 *
 * - project: `<cwd>/opencode.json` (or `opencode.jsonc`), where OpenCode starts
 * - user:    `$XDG_CONFIG_HOME/opencode/opencode.json` (default `~/.config/opencode/`)
 *
 * The entry is an absolute `file://` URL of this copy's built plugin
 * (`dist/adapters/opencode/plugin.js`), so it works from a clone without
 * publishing anything. Entries of that shape are boulder's: uninstall removes
 * exactly those, and installing again replaces them (a moved clone, a newer
 * boulder) rather than adding a second one.
 *
 * The file is edited in place: comments, layout and the user's other settings
 * keep every byte (`jsonc.ts`, `settings-json.ts`). Nothing is written when
 * nothing changes; otherwise the old file is first copied to
 * `<file>.boulder-backup-<UTC time>`. A file that cannot be parsed is refused,
 * never rewritten.
 */
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Node } from "jsonc-parser";
import { BoulderError } from "../../core/errors.js";
import { packageRoot, readConfigText, sameJson, writeConfigText } from "../shared/config-file.js";
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
export const PACKAGE_NAME = "boulder-agent";
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

/** The plugin entry for this copy of boulder: the `file://` URL of its built plugin. */
export function pluginEntry(root: string = packageRoot()): string {
	return pathToFileURL(path.join(root, PLUGIN_FILE)).href;
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
	/** The entry to write; defaults to this copy's plugin. */
	entry?: string;
	now?: () => Date;
}

export type { InstallReport } from "../shared/install-report.js";

export async function installOpenCode(options: InstallOptions): Promise<InstallReport> {
	const entry = options.entry ?? pluginEntry();
	const plugin = ourPluginPath(entry);
	if (plugin !== null && !existsSync(plugin)) throw new BoulderError("not-found", INSTALL_TEXT.noBundle(plugin));
	const file = await targetFile(options);
	const original = await readConfigText(file);
	const edit = withOurPlugin(original ?? "", file, entry);
	if (!edit.changed) return { file, action: "unchanged", backup: null, entries: 0 };
	const backup = await writeConfigText(file, original, edit.text, options.now);
	return { file, action: edit.removed > 0 ? "updated" : "installed", backup, entries: edit.added };
}

export async function uninstallOpenCode(options: InstallOptions): Promise<InstallReport> {
	const files = existingConfigFiles(options.scope, options);
	for (const file of files) {
		const original = await readConfigText(file);
		if (original === null) continue;
		const edit = withoutOurPlugin(original, file);
		if (edit.removed === 0) continue;
		const backup = await writeConfigText(file, original, edit.text, options.now);
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
	const ours = list.filter((item) => ourPluginPath(item) !== null);
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
	const others = list.filter((item) => ourPluginPath(item) === null);
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
		const list = (Array.isArray(before.plugin) ? before.plugin : []).filter((item) => ourPluginPath(item) === null);
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
		const at = elementsOf(plugin).findIndex((item) => ourPluginPath(plainValue(item)) !== null);
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
	if (plugin && plugin.type !== "array") throw new BoulderError("settings-invalid", INSTALL_TEXT.pluginNotList(file));
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
