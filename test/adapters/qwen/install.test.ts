import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installerOf } from "../../../src/adapters/command-hook/install.js";
import { commandReader, hookCommand as spelled } from "../../../src/adapters/command-hook/spelling.js";
import { install, withRaisedCap } from "../../../src/adapters/qwen/dialect.js";
import { type HookForm, PORTABLE } from "../../../src/adapters/shared/hook-form.js";

const hookCommand = (form: HookForm, event: string) => spelled(install.command, form, event);
const parseOurCommand = commandReader(install.command);

const {
	install: installQwen,
	uninstall: uninstallQwen,
	withOurHooks: withOurQwenHooks,
	withoutOurHooks: withoutOurQwenHooks,
} = installerOf(install);

const PINNED = { node: "/usr/bin/node", bundle: "/opt/boulder/dist/hook/boulder-hook.cjs", version: "1.2.3" };

describe("Qwen Code hook commands", () => {
	it("reads back both forms, and nobody else's", () => {
		expect(parseOurCommand(hookCommand(PINNED, "Stop"))).toEqual({ form: "pinned", event: "Stop", ...PINNED });
		expect(parseOurCommand(hookCommand(PORTABLE, "PreCompact"))).toEqual({ form: "portable", event: "PreCompact" });
		expect(parseOurCommand("node other.js Stop")).toBeNull();
	});

	it("runs the project's own boulder first, then boulder-hook on the PATH, then nothing", () => {
		const command = hookCommand(PORTABLE, "Stop");
		expect(command).toContain("$QWEN_PROJECT_DIR/node_modules/boulder-agent/dist/hook/boulder-hook.cjs");
		expect(command).toContain("exec boulder-hook qwen Stop");
		expect(command.endsWith("exit 0")).toBe(true);
		expect(command).not.toMatch(/\/(work|home|tmp)\//);
	});
});

describe("settings edits", () => {
	const file = "settings.json";
	const original =
		'{\n  "model": { "name": "qwen3" },\n  "hooks": {\n    "Stop": [\n      { "hooks": [{ "type": "command", "command": "my-own-hook" }] }\n    ]\n  }\n}\n';

	it("round-trips byte for byte, keeps the user's hooks, and installs once", () => {
		const installed = withOurQwenHooks(original, file, PINNED);
		expect(installed.changed).toBe(true);
		expect(installed.text).toContain("my-own-hook");
		expect(withOurQwenHooks(installed.text, file, PINNED).changed).toBe(false);
		expect(withoutOurQwenHooks(installed.text, file).text).toBe(original);
	});

	it("replaces the other form rather than adding a second set", () => {
		const pinned = withOurQwenHooks(original, file, PINNED).text;
		const portable = withOurQwenHooks(pinned, file, PORTABLE);
		expect(portable.removed).toBeGreaterThan(0);
		expect(portable.text).not.toContain(PINNED.bundle);
		expect(withoutOurQwenHooks(portable.text, file).text).toBe(original);
	});
});

describe("install and uninstall", () => {
	let root: string;
	let env: NodeJS.ProcessEnv;
	beforeEach(async () => {
		root = await mkdtemp(join(tmpdir(), "qwen-install-"));
		env = { HOME: join(root, "home"), XDG_STATE_HOME: join(root, "state") };
		await mkdir(join(root, "project"), { recursive: true });
	});
	afterEach(async () => rm(root, { recursive: true, force: true }));

	it("creates the project file with Qwen Code's settings version, and takes it away again", async () => {
		const place = { cwd: join(root, "project"), env, scope: "project" as const };
		const { report } = await installQwen(place);
		expect(report.action).toBe("installed");
		const text = await readFile(report.file, "utf8");
		expect(JSON.parse(text)).toMatchObject({ $version: 4, hooks: { Stop: expect.any(Array) } });
		expect((await installQwen(place)).report.action).toBe("unchanged");
		expect((await uninstallQwen(place)).action).toBe("removed");
		expect(existsSync(report.file)).toBe(false);
		expect(existsSync(join(root, "project", ".qwen"))).toBe(false);
	});

	it("puts a user's file back as it was, with the old one kept out of the way", async () => {
		const settings = join(root, "home", ".qwen", "settings.json");
		await mkdir(join(root, "home", ".qwen"), { recursive: true });
		const before = '{\n\t"$version": 4,\n\t"model": {"name": "m"}\n}\n';
		await writeFile(settings, before);
		const place = { cwd: join(root, "project"), env, scope: "user" as const };
		const { report } = await installQwen(place);
		expect(report.backup).not.toBeNull();
		expect(report.backup?.startsWith(join(root, "state"))).toBe(true);
		await uninstallQwen(place);
		expect(await readFile(settings, "utf8")).toBe(before);
	});
});

describe("raising Qwen Code's continuation cap (--raise-cap)", () => {
	const file = "settings.json";

	it("sets stopHookBlockingCap to 100, keeping every other byte, and changes nothing when it already is", () => {
		const original = '{\n  "$version": 4,\n  "model":   { "name": "qwen3" }\n}\n';
		const raised = withRaisedCap(original, file);
		expect(raised.changed).toBe(true);
		expect(raised.text).toContain('"model":   { "name": "qwen3" }');
		expect(raised.text).toMatch(/"stopHookBlockingCap": 100/);
		expect(withRaisedCap(raised.text, file)).toEqual({ text: raised.text, changed: false });
	});

	it("raises a lower cap in place", () => {
		const raised = withRaisedCap('{ "stopHookBlockingCap": 8, "x": 1 }\n', file);
		expect(raised.text).toBe('{ "stopHookBlockingCap": 100, "x": 1 }\n');
	});

	it("refuses a file that is not a settings object, naming it", () => {
		expect(() => withRaisedCap("[1, 2", "/p/.qwen/settings.json")).toThrow(/\/p\/\.qwen\/settings\.json/);
	});

	describe("through the installer", () => {
		let root: string;
		let env: NodeJS.ProcessEnv;
		beforeEach(async () => {
			root = await mkdtemp(join(tmpdir(), "qwen-cap-"));
			env = {
				HOME: join(root, "home"),
				XDG_STATE_HOME: join(root, "state"),
				QWEN_CODE_SYSTEM_SETTINGS_PATH: join(root, "none.json"),
			};
			await mkdir(join(root, "project"), { recursive: true });
		});
		afterEach(async () => rm(root, { recursive: true, force: true }));

		it("offers it, never silently, when the cap is low", async () => {
			const { notes } = await installQwen({ cwd: join(root, "project"), env, scope: "project" });
			expect(notes.join("\n")).toMatch(/only 7 continuation\(s\) .*boulder install qwen --project --raise-cap/);
			const text = await readFile(join(root, "project", ".qwen", "settings.json"), "utf8");
			expect(text).not.toContain("stopHookBlockingCap");
		});

		it("sets it with the flag, says so, and leaves it on uninstall", async () => {
			const place = { cwd: join(root, "project"), env, scope: "project" as const, raiseCap: true };
			const { report, notes } = await installQwen(place);
			expect(notes.join("\n")).toMatch(/Set "stopHookBlockingCap": 100 in .*settings\.json/);
			expect(JSON.parse(await readFile(report.file, "utf8"))).toMatchObject({ stopHookBlockingCap: 100 });
			expect((await installQwen(place)).report.action).toBe("unchanged");
			expect((await uninstallQwen(place)).action).toBe("removed");
			expect(JSON.parse(await readFile(report.file, "utf8"))).toEqual({ $version: 4, stopHookBlockingCap: 100 });
		});
	});
});
