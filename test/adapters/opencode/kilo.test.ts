/**
 * Kilo Code as the OpenCode adapter's second host: the same hub, installer and
 * doctor, with Kilo's name, files and words. The installer's edits give the
 * same bytes back on uninstall, in each of Kilo's config files.
 */
import { existsSync } from "node:fs";
import { lstat, mkdir, mkdtemp, readFile, realpath, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { kiloAdapter, openCodeAdapter } from "../../../src/adapters/opencode/adapter.js";
import { checkOpenCodePlugin } from "../../../src/adapters/opencode/doctor.js";
import { hostFromEnv, KILO_HOST, OPENCODE_HOST } from "../../../src/adapters/opencode/host.js";
import {
	cachedPackageFolder,
	installOpenCodeWithNotes,
	ourPluginPath,
	uninstallOpenCode,
} from "../../../src/adapters/opencode/install.js";
import * as kiloPluginModule from "../../../src/adapters/opencode/kilo-plugin.js";
import { closeHubs, decisionsOf, records, setUp, stateOf } from "./helpers.js";

const S = "ses_kilo_1";

async function tempDir(): Promise<string> {
	return mkdtemp(path.join(os.tmpdir(), "boulder-kilo-"));
}

/** A built copy of boulder with both plugin files. */
async function fakeBoulder(version = "9.9.9"): Promise<string> {
	const root = await tempDir();
	for (const file of [OPENCODE_HOST.pluginFile, KILO_HOST.pluginFile]) {
		await mkdir(path.dirname(path.join(root, file)), { recursive: true });
		await writeFile(path.join(root, file), "export const BoulderPlugin = async () => ({});\n");
	}
	await writeFile(path.join(root, "package.json"), JSON.stringify({ name: "boulder-agent", version }));
	return root;
}

async function place() {
	const cwd = await tempDir();
	const home = await tempDir();
	return { cwd, home, env: { HOME: home } as NodeJS.ProcessEnv };
}

afterEach(closeHubs);

describe("which host loaded the plugin", () => {
	it("is Kilo when Kilo's pid is this process's, or when only KILO=1 says so", () => {
		expect(hostFromEnv({ KILO: "1", OPENCODE: "1", KILO_PID: "42" }, 42)).toBe(KILO_HOST);
		expect(hostFromEnv({ KILO: "1", OPENCODE: "1" }, 42)).toBe(KILO_HOST);
	});

	it("is OpenCode otherwise, also under a Kilo variable inherited from a Kilo shell", () => {
		expect(hostFromEnv({ OPENCODE: "1" }, 42)).toBe(OPENCODE_HOST);
		expect(hostFromEnv({}, 42)).toBe(OPENCODE_HOST);
		expect(hostFromEnv({ KILO: "1", OPENCODE: "1", KILO_PID: "7" }, 42)).toBe(OPENCODE_HOST);
	});

	it("Kilo's own plugin file exports exactly one function, as Kilo calls every export as a plugin", () => {
		expect(Object.keys(kiloPluginModule)).toEqual(["BoulderPlugin"]);
	});
});

describe("the hub hosted by Kilo", () => {
	it("files its sessions, state and decisions under the harness `kilo`", async () => {
		const { hub, ws, oc } = setUp({ config: { enabled: false }, host: KILO_HOST });
		await oc.prompt(S, "Do the list.");
		await oc.todos(S, ["in_progress", "pending"]);
		await oc.step(S, { finish: "stop", tokens: { input: 10, output: 2 } });
		await oc.idle(S);
		await hub.settled();

		expect((await stateOf(ws.store, S, "kilo")).todos?.map((todo) => todo.status)).toEqual(["in_progress", "pending"]);
		await expect(stateOf(ws.store, S, "opencode")).rejects.toThrow(/no state/);
		expect(await decisionsOf(ws.store)).toEqual(["event:user-turn", "skip:disabled"]);
		expect(new Set((await records(ws.store)).map((record) => record.harness))).toEqual(new Set(["kilo"]));
	});
});

describe("`boulder install kilo` / `uninstall kilo`", () => {
	it("is its own adapter beside OpenCode's, with Kilo's name, program and files", () => {
		expect(kiloAdapter).toMatchObject({ name: "kilo", title: "Kilo Code", program: "kilo", defaultScope: "project" });
		expect(kiloAdapter.scopes.map((scope) => scope.name)).toEqual(["project", "user"]);
		expect(kiloAdapter.scopes[0]?.help).toContain("kilo.json");
		expect(openCodeAdapter.name).toBe("opencode");
	});

	it("project: writes a new ./kilo.json naming the package, links Kilo's package cache, and removes both traces on uninstall", async () => {
		const root = await fakeBoulder();
		const p = await place();
		const { report, notes } = await installOpenCodeWithNotes({ ...p, scope: "project", host: KILO_HOST, root });
		const file = path.join(p.cwd, "kilo.json");
		expect(report).toMatchObject({ file, action: "installed" });
		expect(JSON.parse(await readFile(file, "utf8"))).toEqual({
			$schema: "https://app.kilo.ai/config.json",
			plugin: ["boulder-agent"],
		});
		const cache = cachedPackageFolder(p.env, "boulder-agent", KILO_HOST);
		expect(cache).toBe(
			path.join(p.home, ".cache", "kilo", "packages", "boulder-agent@latest", "node_modules", "boulder-agent"),
		);
		expect((await lstat(cache)).isSymbolicLink()).toBe(true);
		expect(await realpath(cache)).toBe(await realpath(root));
		expect(notes.join("\n")).toContain("Kilo Code loads it from its package cache");

		expect(await uninstallOpenCode({ ...p, scope: "project", host: KILO_HOST })).toMatchObject({
			file,
			action: "removed",
		});
		expect(existsSync(file)).toBe(false);
	});

	it.each([
		["kilo.jsonc", '// my Kilo settings\n{\n  "model": "x/y", // keep\n  "plugin": ["other"],\n}\n'],
		[".kilo/kilo.jsonc", '{\n\t"$schema": "https://app.kilo.ai/config.json",\n\t/* mine */ "share": "disabled"\n}\n'],
		[".kilo/kilo.json", '{"model":"x/y"}'],
	])("project: edits an existing %s in place and gives the same bytes back", async (name, text) => {
		const root = await fakeBoulder();
		const p = await place();
		const file = path.join(p.cwd, ...name.split("/"));
		await mkdir(path.dirname(file), { recursive: true });
		await writeFile(file, text);
		expect((await installOpenCodeWithNotes({ ...p, scope: "project", host: KILO_HOST, root })).report).toMatchObject({
			file,
			action: "installed",
		});
		expect(await readFile(file, "utf8")).toContain('"boulder-agent"');
		expect(existsSync(path.join(p.cwd, "kilo.json"))).toBe(name === "kilo.json");
		expect((await kiloAdapter.installedScopes(p)).map((scope) => scope.file)).toEqual([file]);
		expect(await openCodeAdapter.installedScopes(p)).toEqual([]);

		await uninstallOpenCode({ ...p, scope: "project", host: KILO_HOST });
		expect(await readFile(file, "utf8")).toBe(text);
	});

	it("user: adds this copy's Kilo plugin file to the kilo.jsonc Kilo created, and gives its bytes back", async () => {
		const root = await fakeBoulder();
		const p = await place();
		const file = path.join(p.home, ".config", "kilo", "kilo.jsonc");
		const created = '{\n  "$schema": "https://app.kilo.ai/config.json"\n}';
		await mkdir(path.dirname(file), { recursive: true });
		await writeFile(file, created);

		const { report } = await installOpenCodeWithNotes({ ...p, scope: "user", host: KILO_HOST, root });
		expect(report).toMatchObject({ file, action: "installed" });
		const entry = pathToFileURL(path.join(root, "dist", "adapters", "opencode", "kilo-plugin.js")).href;
		expect(JSON.parse(await readFile(file, "utf8")).plugin).toEqual([entry]);
		expect(ourPluginPath(entry)).not.toBeNull();
		expect((await kiloAdapter.installedScopes(p)).map((scope) => scope.scope)).toEqual(["user"]);

		await uninstallOpenCode({ ...p, scope: "user", host: KILO_HOST });
		expect(await readFile(file, "utf8")).toBe(created);
	});

	it("user: replaces an entry naming OpenCode's plugin file rather than listing boulder twice", async () => {
		const root = await fakeBoulder();
		const p = await place();
		const file = path.join(p.home, ".config", "kilo", "kilo.jsonc");
		const old = pathToFileURL(path.join(root, OPENCODE_HOST.pluginFile)).href;
		await mkdir(path.dirname(file), { recursive: true });
		await writeFile(file, JSON.stringify({ plugin: [old] }));
		const { report } = await installOpenCodeWithNotes({ ...p, scope: "user", host: KILO_HOST, root });
		expect(report).toMatchObject({ action: "updated" });
		expect(JSON.parse(await readFile(file, "utf8")).plugin).toEqual([
			pathToFileURL(path.join(root, KILO_HOST.pluginFile)).href,
		]);
	});

	it("names Kilo Code when it refuses a file", async () => {
		const root = await fakeBoulder();
		const p = await place();
		await writeFile(path.join(p.cwd, "kilo.json"), "[1]");
		await expect(installOpenCodeWithNotes({ ...p, scope: "project", host: KILO_HOST, root })).rejects.toThrow(
			/holds a list where Kilo Code expects a config object/,
		);
		expect(await readFile(path.join(p.cwd, "kilo.json"), "utf8")).toBe("[1]");
	});
});

describe("boulder doctor's Kilo Code check", () => {
	it("finds the entry in Kilo's files, in Kilo's words, and ignores OpenCode's", async () => {
		const root = await fakeBoulder("1.2.3");
		const p = await place();
		await installOpenCodeWithNotes({ ...p, scope: "project", host: KILO_HOST, root });
		await writeFile(path.join(p.cwd, "opencode.json"), JSON.stringify({ plugin: ["boulder-agent"] }));

		const findings = await checkOpenCodePlugin(p, "1.2.3", KILO_HOST);
		expect(findings).toEqual([
			expect.objectContaining({
				check: "kilo",
				level: "ok",
				message: expect.stringMatching(/kilo\.json loads boulder by package name \(boulder 1\.2\.3/),
			}),
		]);
	});

	it("says how to fix a cache link that points nowhere, with Kilo's command", async () => {
		const root = await fakeBoulder("1.2.3");
		const p = await place();
		await installOpenCodeWithNotes({ ...p, scope: "project", host: KILO_HOST, root });
		const { rm } = await import("node:fs/promises");
		await rm(root, { recursive: true, force: true });

		const findings = await checkOpenCodePlugin(p, "1.2.3", KILO_HOST);
		expect(findings).toEqual([
			expect.objectContaining({
				check: "kilo",
				level: "problem",
				message: expect.stringContaining("from Kilo Code's cache"),
				fix: "`boulder install kilo --project`",
			}),
		]);
	});

	it("says nothing is installed, naming Kilo Code and its install command", async () => {
		const findings = await checkOpenCodePlugin(await place(), "1.2.3", KILO_HOST);
		expect(findings).toEqual([
			expect.objectContaining({
				check: "kilo",
				level: "ok",
				message: "boulder's plugin is not in this project's or your user Kilo Code config",
				fix: "`boulder install kilo` adds it, if you use Kilo Code here",
			}),
		]);
	});
});
