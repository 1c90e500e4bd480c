import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { doctorCheck } from "../../../src/adapters/command-hook/doctor.js";
import { installerOf } from "../../../src/adapters/command-hook/install.js";
import { commandReader, hookCommand as spelled } from "../../../src/adapters/command-hook/spelling.js";
import { doctor, install, REGISTRATIONS, settingsFile } from "../../../src/adapters/gemini/dialect.js";
import { backupFile } from "../../../src/adapters/shared/config-file.js";
import { type HookForm, type HookProgram, PORTABLE } from "../../../src/adapters/shared/hook-form.js";

const hookCommand = (form: HookForm, event: string) => spelled(install.command, form, event);
const parseOurCommand = commandReader(install.command);

const {
	install: installGemini,
	uninstall: uninstallGemini,
	withOurHooks,
	withoutOurHooks,
	ourEntries,
	group: hookGroup,
} = installerOf(install);
const checkGeminiHooks = doctorCheck(install, doctor).hooks;

const FILE = "/p/.gemini/settings.json";

/** A user's settings as people write them for Gemini CLI: comments, odd spacing, their own hooks. */
const USERS_SETTINGS = `{
  // Gemini CLI reads comments in its settings.
  "security": { "auth": { "selectedType": "gemini-api-key" } },
  "hooks": {
    /* my notifier */
    "AfterAgent": [
      { "hooks": [ { "type": "command", "command": "~/bin/notify.sh", "timeout": 5000 } ] }
    ],
    "BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "guard.sh"}]}]
  },
  "ui": {"theme": "GitHub"}
}
`;

let dir: string;
let program: HookProgram;

beforeEach(async () => {
	dir = await mkdtemp(path.join(os.tmpdir(), "boulder-gemini-install-"));
	const bundle = path.join(dir, "pkg", "dist", "hook", "boulder-hook.cjs");
	await mkdir(path.dirname(bundle), { recursive: true });
	await writeFile(bundle, "// the hook");
	await writeFile(path.join(dir, "pkg", "package.json"), JSON.stringify({ name: "boulder-agent", version: "1.2.3" }));
	program = { node: process.execPath, bundle, version: "1.2.3" };
});

describe("boulder's hooks in Gemini CLI's settings text", () => {
	it("adds one group per event, keeps the user's comments and hooks, and comes out byte for byte", () => {
		const installed = withOurHooks(USERS_SETTINGS, FILE, program);
		expect(installed.changed).toBe(true);
		expect(installed.text).toContain("// Gemini CLI reads comments in its settings.");
		expect(installed.text).toContain("/* my notifier */");
		expect(installed.text).toContain("~/bin/notify.sh");
		expect(
			ourEntries(parseJsonc(installed.text))
				.map((entry) => entry.event)
				.sort(),
		).toEqual(REGISTRATIONS.map((registration) => registration.event).sort());
		expect(withoutOurHooks(installed.text, FILE).text).toBe(USERS_SETTINGS);
	});

	it("changes nothing when the same hooks are there, and replaces another version's", () => {
		const installed = withOurHooks(USERS_SETTINGS, FILE, program).text;
		expect(withOurHooks(installed, FILE, program)).toMatchObject({ changed: false, text: installed });
		const newer = withOurHooks(installed, FILE, { ...program, version: "2.0.0" });
		expect(newer).toMatchObject({ changed: true, removed: REGISTRATIONS.length });
		expect(ourEntries(parseJsonc(newer.text))).toHaveLength(REGISTRATIONS.length);
	});

	it("installs no PreCompress (Gemini CLI fires it before every model request), and drops an older install's", () => {
		const installed = withOurHooks("", FILE, program).text;
		expect(ourEntries(parseJsonc(installed)).map((entry) => entry.event)).not.toContain("PreCompress");
		const older = JSON.parse(installed) as { hooks: Record<string, unknown[]> };
		older.hooks.PreCompress = [hookGroup(program, { event: "PreCompress", timeout: 60_000 })];
		const upgraded = withOurHooks(JSON.stringify(older, null, 2), FILE, program);
		expect(upgraded).toMatchObject({ changed: true, removed: REGISTRATIONS.length + 1 });
		expect(ourEntries(parseJsonc(upgraded.text)).map((entry) => entry.event)).not.toContain("PreCompress");
	});

	it("round-trips any settings object it is given (property)", () => {
		fc.assert(
			fc.property(
				fc.dictionary(
					fc.string().filter((key) => key !== "hooks"),
					fc.jsonValue(),
				),
				(settings) => {
					const text = `${JSON.stringify(settings, null, 2)}\n`;
					const installed = withOurHooks(text, FILE, program).text;
					expect(withoutOurHooks(installed, FILE).text).toBe(text);
				},
			),
		);
	});

	it("refuses a file that is not JSON, or whose hooks are the wrong shape, naming the file", () => {
		expect(() => withOurHooks('{"hooks": ', FILE, program)).toThrow(/settings.json is not valid JSON/);
		expect(() => withOurHooks('{"hooks": []}', FILE, program)).toThrow(/"hooks" in .*settings.json is not an object/);
		expect(() => withOurHooks('{"hooks": {"AfterAgent": {}}}', FILE, program)).toThrow(/hooks.AfterAgent/);
	});

	it("times hooks in milliseconds, Gemini CLI's unit: fifteen minutes for AfterAgent, which may verify", () => {
		const settings = parseJsonc(withOurHooks("", FILE, program).text) as {
			hooks: Record<string, { hooks: { timeout: number }[] }[]>;
		};
		expect(settings.hooks.AfterAgent?.[0]?.hooks[0]?.timeout).toBe(900_000);
		expect(settings.hooks.BeforeAgent?.[0]?.hooks[0]?.timeout).toBe(60_000);
	});
});

describe("the commands", () => {
	it("reads back pinned and portable commands, and nobody else's", () => {
		expect(parseOurCommand(hookCommand(program, "AfterAgent"))).toEqual({
			form: "pinned",
			node: program.node,
			bundle: program.bundle,
			event: "AfterAgent",
			version: "1.2.3",
		});
		expect(parseOurCommand(hookCommand(PORTABLE, "BeforeAgent"))).toEqual({ form: "portable", event: "BeforeAgent" });
		expect(parseOurCommand("~/bin/notify.sh")).toBeNull();
		expect(parseOurCommand("node x.cjs claude-code Stop --boulder-hook=1.0.0")).toBeNull();
	});
});

describe("install and uninstall", () => {
	it("installs in the user's settings, keeps a backup out of the project, and uninstalls to the same bytes", async () => {
		const env = { HOME: path.join(dir, "home"), XDG_STATE_HOME: path.join(dir, "state") };
		const place = { cwd: path.join(dir, "project"), env, scope: "user" as const, form: program };
		const file = settingsFile("user", place);
		await mkdir(path.dirname(file), { recursive: true });
		await writeFile(file, USERS_SETTINGS);

		const first = await installGemini(place);
		expect(first.report).toMatchObject({ action: "installed", entries: REGISTRATIONS.length });
		expect(first.report.backup).toBe(backupFile(file, env));
		expect(await readFile(backupFile(file, env), "utf8")).toBe(USERS_SETTINGS);
		expect((await installGemini(place)).report.action).toBe("unchanged");
		expect(await checkGeminiHooks(place, "1.2.3")).toContainEqual(expect.objectContaining({ level: "ok" }));

		expect(await uninstallGemini(place)).toMatchObject({ action: "removed", entries: REGISTRATIONS.length });
		expect(await readFile(file, "utf8")).toBe(USERS_SETTINGS);
		expect((await uninstallGemini(place)).action).toBe("absent");
	});

	it("writes portable commands into the project's settings and links this boulder for the user", async () => {
		const env = {
			HOME: path.join(dir, "home"),
			XDG_STATE_HOME: path.join(dir, "state"),
			XDG_DATA_HOME: path.join(dir, "data"),
		};
		const place = { cwd: path.join(dir, "project"), env, scope: "project" as const, root: path.join(dir, "pkg") };
		const { report } = await installGemini(place);
		const text = await readFile(report.file, "utf8");
		expect(report.file).toBe(path.join(dir, "project", ".gemini", "settings.json"));
		expect(text).not.toContain(dir);
		expect(await readFile(path.join(dir, "data", "boulder", "boulder-hook.cjs"), "utf8")).toContain(program.bundle);
		expect(await checkGeminiHooks(place, "1.2.3")).toContainEqual(
			expect.objectContaining({ level: "ok", message: expect.stringMatching(/portable/) }),
		);
		await uninstallGemini(place);
		await expect(readFile(report.file, "utf8")).rejects.toThrow(/ENOENT/);
	});

	it("has the doctor warn about a missing event, as every command-hook harness's doctor does", async () => {
		const env = { HOME: path.join(dir, "home"), XDG_DATA_HOME: path.join(dir, "data") };
		const place = { cwd: path.join(dir, "project"), env, scope: "user" as const, root: path.join(dir, "pkg") };
		const { report } = await installGemini(place);
		const settings = JSON.parse(await readFile(report.file, "utf8"));
		delete settings.hooks.BeforeAgent;
		await writeFile(report.file, JSON.stringify(settings));

		expect(await checkGeminiHooks(place, "1.2.3")).toContainEqual(
			expect.objectContaining({ level: "warn", message: expect.stringMatching(/miss BeforeAgent/) }),
		);
	});

	it("has the doctor say when the hooks are missing, or when Gemini CLI's hooks are switched off", async () => {
		const env = { HOME: path.join(dir, "home") };
		const place = { cwd: path.join(dir, "project"), env };
		expect(await checkGeminiHooks(place, "1.2.3")).toEqual([
			expect.objectContaining({ level: "ok", fix: expect.stringMatching(/boulder install gemini/) }),
		]);
		const file = settingsFile("user", place);
		await mkdir(path.dirname(file), { recursive: true });
		await writeFile(file, '{"hooksConfig": {"enabled": false}}');
		expect(await checkGeminiHooks(place, "1.2.3")).toContainEqual(
			expect.objectContaining({ level: "problem", message: expect.stringMatching(/hooks off/) }),
		);
	});
});

function parseJsonc(text: string): unknown {
	return JSON.parse(text.replace(/^\s*\/\/.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, ""));
}
