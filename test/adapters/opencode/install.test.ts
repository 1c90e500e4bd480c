import { existsSync } from "node:fs";
import { lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { type ParseError, parse as parseJsonc } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import {
	cachedPackageFolder,
	configDir,
	installOpenCode,
	installOpenCodeWithNotes,
	linkOpenCodeCache,
	ourEntries,
	ourPluginPath,
	PLUGIN_FILE,
	uninstallOpenCode,
	withOurPlugin,
	withoutOurPlugin,
} from "../../../src/adapters/opencode/install.js";
import { BoulderError } from "../../../src/core/errors.js";

const ENTRY = "file:///opt/boulder/dist/adapters/opencode/plugin.js";
const OLD_ENTRY = "file:///home/me/old-clone/dist/adapters/opencode/plugin.js";
const FILE = "/p/opencode.jsonc";

async function tempDir(): Promise<string> {
	return mkdtemp(path.join(os.tmpdir(), "boulder-oc-install-"));
}

/** A built copy of boulder: a folder holding the plugin file. */
async function fakeBoulder(): Promise<string> {
	const root = await tempDir();
	await mkdir(path.dirname(path.join(root, PLUGIN_FILE)), { recursive: true });
	await writeFile(path.join(root, PLUGIN_FILE), "export const BoulderPlugin = async () => ({});\n");
	await writeFile(path.join(root, "package.json"), JSON.stringify({ name: "boulder-agent", version: "9.9.9" }));
	return root;
}

function roundTrip(text: string): string {
	const installed = withOurPlugin(text, FILE, ENTRY);
	expect(installed.changed).toBe(true);
	expect(ourEntries(parse(installed.text))).toEqual([
		{ entry: ENTRY, file: "/opt/boulder/dist/adapters/opencode/plugin.js" },
	]);
	return withoutOurPlugin(installed.text, FILE).text;
}

function parse(text: string): unknown {
	const errors: ParseError[] = [];
	const value = parseJsonc(text.replace(/^\uFEFF/, ""), errors, { allowTrailingComma: true });
	expect(errors).toEqual([]);
	return value;
}

describe("recognising boulder's entries", () => {
	it("takes file URLs and absolute paths of a built boulder plugin, alone or with options", () => {
		expect(ourPluginPath(ENTRY)).toBe("/opt/boulder/dist/adapters/opencode/plugin.js");
		expect(ourPluginPath("/opt/boulder/dist/adapters/opencode/plugin.js")).not.toBeNull();
		expect(ourPluginPath([ENTRY, { any: 1 }])).not.toBeNull();
	});

	it("leaves other plugins, relative paths and package names alone", () => {
		expect(ourPluginPath("opencode-foo")).toBeNull();
		expect(ourPluginPath("./dist/adapters/opencode/plugin.js")).toBeNull();
		expect(ourPluginPath("file:///opt/other/plugin.js")).toBeNull();
		expect(ourPluginPath("boulder-agent")).toBeNull();
		expect(ourEntries({ plugin: ["boulder-agent@1.0.0", "x"] })).toEqual([
			{ entry: "boulder-agent@1.0.0", file: null },
		]);
	});
});

describe("adding the plugin to a config", () => {
	it("writes a new config with only the plugin when there is none", () => {
		const result = withOurPlugin("", FILE, ENTRY);
		expect(JSON.parse(result.text)).toEqual({ $schema: "https://opencode.ai/config.json", plugin: [ENTRY] });
	});

	it("adds itself last to the user's list and keeps their plugins, comments and layout", () => {
		const text = '{\n  // mine\n  "model": "x/y", /* why */\n  "plugin": [\n    "other-plugin", // keep me\n  ],\n}\n';
		const result = withOurPlugin(text, FILE, ENTRY);
		expect(result.text).toBe(
			`{\n  // mine\n  "model": "x/y", /* why */\n  "plugin": [\n    "other-plugin", // keep me\n    "${ENTRY}",\n  ],\n}\n`,
		);
	});

	it("is idempotent: a second install changes nothing", () => {
		const once = withOurPlugin('{"plugin": ["a"]}\n', FILE, ENTRY).text;
		expect(withOurPlugin(once, FILE, ENTRY)).toEqual({ text: once, changed: false, added: 0, removed: 0 });
	});

	it("replaces an entry from another copy of boulder instead of adding a second", () => {
		const text = `{\n  "plugin": [\n    "${OLD_ENTRY}",\n    "a"\n  ]\n}\n`;
		const result = withOurPlugin(text, FILE, ENTRY);
		expect(result.removed).toBe(1);
		expect((parse(result.text) as { plugin: unknown[] }).plugin).toEqual(["a", ENTRY]);
	});

	it("refuses text that is not JSON(C), or a plugin setting that is not a list, naming the file", () => {
		expect(() => withOurPlugin('{"plugin": [', FILE, ENTRY)).toThrow(BoulderError);
		expect(() => withOurPlugin('{"plugin": [', FILE, ENTRY)).toThrow(/opencode\.jsonc is not valid JSON or JSONC/);
		expect(() => withOurPlugin('{"plugin": "x"}', FILE, ENTRY)).toThrow(
			/"plugin" in \/p\/opencode.jsonc is not a list/,
		);
		expect(() => withOurPlugin("[1]", FILE, ENTRY)).toThrow(/holds a list where OpenCode expects a config object/);
	});

	it("says where the file stops being JSONC", () => {
		expect(() => withOurPlugin('{\n  "plugin": [\n    "a" "b"\n  ]\n}\n', FILE, ENTRY)).toThrow(/line 3, column 9/);
	});

	it.each([
		[
			"four spaces",
			'{\n    "model": "x/y"\n}\n',
			`{\n    "model": "x/y",\n    "plugin": [\n        "${ENTRY}"\n    ]\n}\n`,
		],
		[
			"tabs and CRLF line ends",
			'{\r\n\t"model": "x/y"\r\n}\r\n',
			`{\r\n\t"model": "x/y",\r\n\t"plugin": [\r\n\t\t"${ENTRY}"\r\n\t]\r\n}\r\n`,
		],
	])("lays out a new plugin list like the rest of the file: %s", (_, text, expected) => {
		expect(withOurPlugin(text, FILE, ENTRY).text).toBe(expected);
	});

	it("keeps a byte order mark", () => {
		const text = '\uFEFF{\n  "model": "x/y"\n}\n';
		expect(withOurPlugin(text, FILE, ENTRY).text.startsWith('\uFEFF{\n  "model": "x/y",\n')).toBe(true);
		expect(roundTrip(text)).toBe(text);
	});
});

describe("removing the plugin", () => {
	it.each([
		["a list with a trailing comma and a comment on its last line", '{\n  "plugin": [\n    "a", // keep\n  ],\n}\n'],
		["a list without a trailing comma, comment on its last line", '{\n  "plugin": [\n    "a" // keep\n  ]\n}\n'],
		["a list on one line", '{ "plugin": ["a", "b"], "model": "x/y" }\n'],
		["no list, a comment after the last setting", '{\n  "model": "x/y" // favourite\n}\n'],
		["no list, a comment before the next setting", '{\n  "plugin": ["a"],\n  // the model\n  "model": "x/y"\n}\n'],
		["tabs and CRLF line ends", '{\r\n\t"model": "x/y",\r\n\t"plugin": [\r\n\t\t"a"\r\n\t]\r\n}\r\n'],
		["a one-line object", '{"model":"x/y"}'],
		[
			"a URL holding // before a real comment",
			'{\n  "$schema": "https://opencode.ai/config.json", // schema\n  "plugin": [\n    "a" // x, y\n  ]\n}\n',
		],
		["a comment holding commas between two items", '{\n  "plugin": [\n    "a", /* b, c */ "d"\n  ]\n}\n'],
		[
			"a block comment over two lines after the last item",
			'{\n  "plugin": [\n    "a",\n    /* one\n    two */\n  ],\n}\n',
		],
	])("gives back the same bytes after an install: %s", (_, text) => {
		expect(roundTrip(text)).toBe(text);
	});

	it("takes out the list it leaves empty", () => {
		const installed = withOurPlugin('{\n  "plugin": []\n}\n', FILE, ENTRY).text;
		expect(installed).toBe(`{\n  "plugin": [\n    "${ENTRY}"\n  ]\n}\n`);
		expect(withoutOurPlugin(installed, FILE).text).toBe("{\n}\n");
	});

	it.each([
		["an object", "{\n  // settings come later\n}\n"],
		["a list", '{\n  "plugin": [\n    // none yet\n  ]\n}\n'],
		["a one-line object", "{ /* empty */ }"],
	])("keeps the comments of an empty container it adds to: %s", (_, text) => {
		const installed = withOurPlugin(text, FILE, ENTRY).text;
		expect(installed).toContain(ENTRY);
		expect(roundTrip(text)).toBe(text);
	});

	it("removes exactly boulder's entries, by path or by package name; other plugins stay", () => {
		const text = `{\n  "plugin": [\n    "a",\n    ["${OLD_ENTRY}", {"x": 1}],\n    "boulder-agent",\n    "boulder-agentx",\n    "${ENTRY}"\n  ]\n}\n`;
		const result = withoutOurPlugin(text, FILE);
		expect(result.removed).toBe(3);
		expect((parse(result.text) as { plugin: unknown[] }).plugin).toEqual(["a", "boulder-agentx"]);
	});

	it("replaces a path entry with the package name, and back, keeping the user's bytes", () => {
		const text = '{\n  "model": "x/y", // mine\n  "plugin": ["a"]\n}\n';
		const byPath = withOurPlugin(text, FILE, ENTRY).text;

		const byName = withOurPlugin(byPath, FILE, "boulder-agent");

		expect(byName.removed).toBe(1);
		expect((parse(byName.text) as { plugin: unknown[] }).plugin).toEqual(["a", "boulder-agent"]);
		expect(withOurPlugin(byName.text, FILE, "boulder-agent").changed).toBe(false);
		expect(withoutOurPlugin(byName.text, FILE).text).toBe(text);
	});

	it("keeps a list that still holds a comment", () => {
		const text = `{\n  "plugin": [\n    // later: more plugins\n    "${ENTRY}"\n  ]\n}\n`;
		const result = withoutOurPlugin(text, FILE).text;
		expect(result).toContain("// later: more plugins");
		expect(parse(result)).toEqual({ plugin: [] });
	});

	it("keeps the user's bytes for any config without boulder (install, then uninstall)", () => {
		const value = fc.record(
			{
				model: fc.string({ maxLength: 8 }),
				plugin: fc.array(fc.constantFrom("a", "opencode-foo", "b@1.0.0"), { minLength: 1, maxLength: 3 }),
				share: fc.constantFrom("manual", "disabled"),
			},
			{ requiredKeys: ["model"] },
		);
		fc.assert(
			fc.property(value, fc.constantFrom(0, 2, "\t"), fc.boolean(), (config, indent, comment) => {
				let text = JSON.stringify(config, null, indent);
				if (comment && indent !== 0) text = text.replace(/\n/, "\n  // a comment\n");
				expect(roundTrip(text)).toBe(text);
			}),
		);
	});
});

describe("installing into a folder", () => {
	/** A throwaway HOME, so backups and OpenCode's cache land in the test's folders. */
	async function userFolders() {
		const home = await tempDir();
		return { home, env: { HOME: home } as NodeJS.ProcessEnv, state: path.join(home, ".local", "state", "boulder") };
	}

	it("writes the package name into ./opencode.json and links OpenCode's package cache to this copy", async () => {
		const root = await fakeBoulder();
		const project = await tempDir();
		const { home, env } = await userFolders();

		const result = await installOpenCodeWithNotes({ cwd: project, env, scope: "project", root });

		const text = await readFile(result.report.file, "utf8");
		expect(JSON.parse(text)).toEqual({ $schema: "https://opencode.ai/config.json", plugin: ["boulder-agent"] });
		expect(text).not.toContain(root);
		const folder = cachedPackageFolder(env);
		expect(folder).toBe(
			path.join(home, ".cache", "opencode", "packages", "boulder-agent@latest", "node_modules", "boulder-agent"),
		);
		expect((await lstat(folder)).isSymbolicLink()).toBe(true);
		expect(await realpath(folder)).toBe(await realpath(root));
		expect(result.notes.join("\n")).toMatch(/package name.*without the npm registry.*Teammates/s);
		expect(cachedPackageFolder({ XDG_CACHE_HOME: "/c" }, "boulder-agent@1.2.3")).toBe(
			"/c/opencode/packages/boulder-agent@1.2.3/node_modules/boulder-agent",
		);
	});

	it("re-points an earlier cache link at this copy, and leaves a copy OpenCode downloaded alone", async () => {
		const old = await fakeBoulder();
		const root = await fakeBoulder();
		const { env } = await userFolders();
		const folder = cachedPackageFolder(env);

		expect((await linkOpenCodeCache(env, old)).kind).toBe("linked");
		expect((await linkOpenCodeCache(env, old)).kind).toBe("unchanged");
		expect(await linkOpenCodeCache(env, root)).toEqual({ kind: "linked", folder, target: root });
		expect(await realpath(folder)).toBe(await realpath(root));

		await rm(folder);
		await mkdir(folder);
		expect(await linkOpenCodeCache(env, root)).toEqual({ kind: "downloaded", folder });
		expect((await lstat(folder)).isDirectory()).toBe(true);
	});

	it("writes the user config under $XDG_CONFIG_HOME/opencode, or ~/.config/opencode, pinned to this copy", async () => {
		const root = await fakeBoulder();
		const { home, env } = await userFolders();
		const xdg = path.join(home, "xdg");
		expect(configDir("user", { cwd: "/p", env: { HOME: home } })).toBe(path.join(home, ".config", "opencode"));

		const result = await installOpenCodeWithNotes({
			cwd: "/p",
			env: { ...env, XDG_CONFIG_HOME: xdg },
			scope: "user",
			root,
		});

		expect(result.report.file).toBe(path.join(xdg, "opencode", "opencode.json"));
		expect(result.report.backup).toBeNull();
		expect(JSON.parse(await readFile(result.report.file, "utf8")).plugin).toEqual([
			pathToFileURL(path.join(root, PLUGIN_FILE)).href,
		]);
		expect(result.notes.join("\n")).toMatch(/pinned to this machine/);
		expect(existsSync(cachedPackageFolder(env))).toBe(false);
	});

	it("keeps one backup per file in the user's state folder, and uninstall restores the file", async () => {
		const root = await fakeBoulder();
		const project = await tempDir();
		const { env, state } = await userFolders();
		const original = '{\n  "model": "x/y"\n}\n';
		await writeFile(path.join(project, "opencode.json"), original, { mode: 0o600 });
		const place = { cwd: project, env, scope: "project" as const, root };

		const installed = await installOpenCode(place);
		expect(installed).toMatchObject({ action: "installed", file: path.join(project, "opencode.json"), entries: 1 });
		expect(installed.backup?.startsWith(path.join(state, "install-backups"))).toBe(true);
		expect(await readFile(installed.backup as string, "utf8")).toBe(original);
		expect((await stat(installed.file)).mode & 0o777).toBe(0o600);
		expect((await installOpenCode(place)).action).toBe("unchanged");

		const removed = await uninstallOpenCode(place);
		expect(removed).toMatchObject({ action: "removed", entries: 1, backup: installed.backup });
		expect(await readFile(installed.file, "utf8")).toBe(original);
		expect((await uninstallOpenCode(place)).action).toBe("absent");
		expect(await readdir(project)).toEqual(["opencode.json"]);
		expect(await readdir(path.join(state, "install-backups"))).toHaveLength(1);
	});

	it("removes at uninstall the config it created, and its backup", async () => {
		const root = await fakeBoulder();
		const project = await tempDir();
		const { env, state } = await userFolders();
		const place = { cwd: project, env, scope: "project" as const, root };

		await installOpenCode(place);
		await installOpenCode({ ...place, entry: pathToFileURL(path.join(root, PLUGIN_FILE)).href });
		expect(await uninstallOpenCode(place)).toMatchObject({ action: "removed", backup: null });

		expect(await readdir(project)).toEqual([]);
		expect(existsSync(path.join(state, "install-backups"))).toBe(false);
	});

	it("uses opencode.jsonc when that is the project's config file", async () => {
		const root = await fakeBoulder();
		const project = await tempDir();
		const { env } = await userFolders();
		await writeFile(path.join(project, "opencode.jsonc"), "{\n  // settings\n}\n");
		const report = await installOpenCode({ cwd: project, env, scope: "project", root });
		expect(report.file).toBe(path.join(project, "opencode.jsonc"));
		expect(await readFile(report.file, "utf8")).toContain("// settings");
	});

	it("refuses to point OpenCode at a plugin that was never built", async () => {
		const project = await tempDir();
		const { env } = await userFolders();
		const entry = pathToFileURL(path.join(project, "nowhere", PLUGIN_FILE)).href;
		await expect(installOpenCode({ cwd: project, env, scope: "user", entry })).rejects.toThrow(/was not built/);
		await expect(installOpenCode({ cwd: project, env, scope: "project", root: project })).rejects.toThrow(
			/was not built/,
		);
	});

	it("leaves a file it cannot parse untouched", async () => {
		const root = await fakeBoulder();
		const project = await tempDir();
		const { env } = await userFolders();
		await writeFile(path.join(project, "opencode.json"), "{ nope");
		await expect(installOpenCode({ cwd: project, env, scope: "project", root })).rejects.toThrow(/did not touch it/);
		expect(await readFile(path.join(project, "opencode.json"), "utf8")).toBe("{ nope");
		expect(await readdir(project)).toEqual(["opencode.json"]);
	});
});
