/**
 * `boulder install droid` / `uninstall droid` on real files in a temp folder:
 * which file of a scope gets the hooks (Droid reads `hooks.json`, whose top
 * level is the event map, and a scope's `settings.json` hooks only without
 * one), byte-for-byte round trips of the user's own files, and the doctor.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { droidAdapter, droidHome } from "../../../src/adapters/droid/dialect.js";
import { packageVersion } from "../../../src/adapters/shared/config-file.js";

let root: string;
let place: { cwd: string; env: NodeJS.ProcessEnv };
const project = () => join(root, "project", ".factory");
const user = () => join(root, "home", ".factory");

beforeEach(async () => {
	root = await mkdtemp(join(tmpdir(), "droid-install-"));
	place = { cwd: join(root, "project"), env: { HOME: join(root, "home"), XDG_STATE_HOME: join(root, "state") } };
	await mkdir(project(), { recursive: true });
	await mkdir(user(), { recursive: true });
});

afterEach(() => rm(root, { recursive: true, force: true }));

const install = (scope: string) => droidAdapter.install({ ...place, scope });
const uninstall = (scope: string) => droidAdapter.uninstall({ ...place, scope });
const read = (file: string) => readFile(file, "utf8");

/** This version of boulder as the project's devDependency, which the portable hooks run. */
async function devDependency(project: string): Promise<void> {
	const pkg = join(project, "node_modules", "boulder-agent");
	await mkdir(join(pkg, "dist", "hook"), { recursive: true });
	await writeFile(join(pkg, "dist", "hook", "boulder-hook.cjs"), "// the hook\n");
	await writeFile(join(pkg, "package.json"), JSON.stringify({ name: "boulder-agent", version: packageVersion() }));
}

/** A hooks.json the user wrote, with a hook of their own (top level: the event map, as Droid reads it). */
const THEIRS = '{\n  "Stop": [\n    { "hooks": [{ "type": "command", "command": "my-own-hook" }] }\n  ]\n}\n';

describe("Factory Droid install", () => {
	it("writes the project's hooks.json with the event map at its top level, portable, and removes it again", async () => {
		const { report } = await install("project");
		const file = join(project(), "hooks.json");
		expect(report).toMatchObject({ file, action: "installed" });
		const hooks = JSON.parse(await read(file)) as Record<string, unknown>;
		expect(Object.keys(hooks)).toEqual([
			"SessionStart",
			"UserPromptSubmit",
			"PostToolUse",
			"Stop",
			"SubagentStop",
			"PreCompact",
		]);
		const stop = JSON.stringify(hooks.Stop);
		expect(stop).toContain("$FACTORY_PROJECT_DIR/node_modules/boulder-agent/dist/hook/boulder-hook.cjs");
		expect(stop).toContain("boulder-hook droid Stop");
		expect(stop).not.toContain(root);
		expect((await install("project")).report.action).toBe("unchanged");
		expect((await uninstall("project")).report.action).toBe("removed");
		expect(existsSync(file)).toBe(false);
	});

	it("round-trips the user's own hooks.json byte for byte, at both scopes", async () => {
		for (const [scope, folder] of [
			["project", project()],
			["user", user()],
		] as const) {
			const file = join(folder, "hooks.json");
			await writeFile(file, THEIRS);
			await install(scope);
			const installed = await read(file);
			expect(installed).toContain("my-own-hook");
			expect(installed).toContain("--boulder-hook=");
			await uninstall(scope);
			expect(await read(file)).toBe(THEIRS);
		}
	});

	it("pins the user scope to this node and this copy of boulder", async () => {
		await install("user");
		const text = await read(join(user(), "hooks.json"));
		expect(text).toContain(process.execPath);
		expect(text).toMatch(/boulder-hook\.cjs droid Stop --boulder-hook=\d/);
	});

	it("adds to settings.json's hooks where the scope keeps them there and has no hooks.json, byte for byte", async () => {
		const settings = join(user(), "settings.json");
		const original = `{\n  "customModels": [],\n  "hooks": ${THEIRS.trimEnd().replaceAll("\n", "\n  ")}\n}\n`;
		await writeFile(settings, original);
		expect((await install("user")).report.file).toBe(settings);
		expect(existsSync(join(user(), "hooks.json"))).toBe(false);
		expect(await droidAdapter.installedScopes(place)).toEqual([{ scope: "user", file: settings }]);
		await uninstall("user");
		expect(await read(settings)).toBe(original);
	});

	it("leaves settings.json alone when it has no hooks (Droid's model settings live there)", async () => {
		const settings = join(user(), "settings.json");
		await writeFile(settings, '{ "customModels": [] }\n');
		expect((await install("user")).report.file).toBe(join(user(), "hooks.json"));
		expect(await read(settings)).toBe('{ "customModels": [] }\n');
	});

	it("refuses a hooks.json that is not an object of events, and changes nothing", async () => {
		const file = join(project(), "hooks.json");
		await writeFile(file, "[1, 2]\n");
		await expect(install("project")).rejects.toThrow(/hooks/);
		expect(await read(file)).toBe("[1, 2]\n");
	});
});

describe("Factory Droid's user folder, found as Droid finds it", () => {
	it("is under $FACTORY_HOME_OVERRIDE where it is set, and install writes the hooks there", async () => {
		const moved = join(root, "moved");
		const env = { ...place.env, FACTORY_HOME_OVERRIDE: moved };
		expect((await droidAdapter.install({ ...place, env, scope: "user" })).report.file).toBe(
			join(moved, ".factory", "hooks.json"),
		);
		expect(existsSync(join(user(), "hooks.json"))).toBe(false);
		expect(await droidAdapter.installedScopes({ ...place, env })).toEqual([
			{ scope: "user", file: join(moved, ".factory", "hooks.json") },
		]);
	});

	it("reads an empty override as unset, takes ~ as it is, and falls back to the system's home without HOME", () => {
		expect(droidHome({ HOME: "/h", FACTORY_HOME_OVERRIDE: "" })).toBe("/h");
		expect(droidHome({ HOME: "/h", FACTORY_HOME_OVERRIDE: "~/x" })).toBe("~/x");
		expect(droidHome({})).toBe(homedir());
	});
});

describe("Factory Droid install over a hand-edited hooks.json", () => {
	it("puts back every hook of boulder's when one event was taken out by hand, and loses none", async () => {
		await install("user");
		const file = join(user(), "hooks.json");
		const edited = JSON.parse(await read(file)) as Record<string, unknown>;
		delete edited.PreCompact;
		await writeFile(file, JSON.stringify(edited, null, 2));

		expect((await install("user")).report).toMatchObject({ file, action: "updated" });
		expect(Object.keys(JSON.parse(await read(file)) as object)).toEqual([
			"SessionStart",
			"UserPromptSubmit",
			"PostToolUse",
			"Stop",
			"SubagentStop",
			"PreCompact",
		]);
	});
});

describe("Factory Droid doctor", () => {
	const findings = () => droidAdapter.doctor.run({ ...place, cwd: place.cwd } as never);

	it("says where the hooks are, and that nothing is installed when nothing is", async () => {
		expect(await findings()).toContainEqual(
			expect.objectContaining({ level: "ok", message: expect.stringMatching(/not in/) }),
		);
		await install("project");
		// The portable hooks find nothing yet: a problem, as in every command-hook harness's doctor.
		expect(await findings()).toContainEqual(
			expect.objectContaining({ level: "problem", message: expect.stringMatching(/find no installed boulder here/) }),
		);
		await devDependency(place.cwd);
		expect(await findings()).toContainEqual(
			expect.objectContaining({ level: "ok", message: expect.stringContaining(join(project(), "hooks.json")) }),
		);
	});

	it("finds boulder's settings.json hooks hidden by a hooks.json Droid reads instead", async () => {
		const settings = join(user(), "settings.json");
		await writeFile(settings, '{\n  "hooks": {}\n}\n');
		await install("user");
		await writeFile(join(user(), "hooks.json"), THEIRS);
		expect(await findings()).toContainEqual(
			expect.objectContaining({ level: "problem", file: settings, message: expect.stringMatching(/do not run/) }),
		);
	});

	it("finds a pinned hook program that is gone", async () => {
		await writeFile(
			join(user(), "hooks.json"),
			JSON.stringify({
				Stop: [
					{
						hooks: [
							{ type: "command", command: "/nowhere/node /nowhere/boulder-hook.cjs droid Stop --boulder-hook=0.1.0" },
						],
					},
				],
			}),
		);
		expect(await findings()).toContainEqual(
			expect.objectContaining({ level: "problem", message: expect.stringMatching(/does not exist/) }),
		);
		expect(await findings()).toContainEqual(
			expect.objectContaining({ level: "warn", message: expect.stringMatching(/miss SessionStart, UserPromptSubmit/) }),
		);
	});
});
