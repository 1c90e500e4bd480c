import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { doctor, hooksFile, install, REGISTRATIONS } from "../../../src/adapters/codex/dialect.js";
import {
	hookTrustHash,
	projectTrusted,
	readHookStates,
	trustOf,
	trustRecords,
} from "../../../src/adapters/codex/trust.js";
import { doctorCheck } from "../../../src/adapters/command-hook/doctor.js";
import { installerOf } from "../../../src/adapters/command-hook/install.js";
import { watchdogMs } from "../../../src/adapters/command-hook/registrations.js";
import { commandReader, hookCommand as spelled } from "../../../src/adapters/command-hook/spelling.js";
import { BOULDER_HOOK_BUNDLE as HOOK_BUNDLE, type HookForm, PORTABLE } from "../../../src/adapters/shared/hook-form.js";

const hookCommand = (form: HookForm, event: string) => spelled(install.command, form, event);
const parseOurCommand = commandReader(install.command);

const { install: installCodex, uninstall: uninstallCodex } = installerOf(install);
const checkCodexHooks = doctorCheck(install, doctor).hooks;

async function place() {
	const root = await mkdtemp(path.join(os.tmpdir(), "boulder-codex-install-"));
	const home = path.join(root, "home");
	const project = path.join(root, "project");
	await mkdir(path.join(project, ".git"), { recursive: true });
	const env = { HOME: home, CODEX_HOME: path.join(home, ".codex"), XDG_STATE_HOME: path.join(home, "state"), PATH: "" };
	return { root, home, project, env, cwd: project };
}

const THEIRS = `{\n\t"hooks": {\n\t\t"Stop": [{ "hooks": [{ "type": "command", "command": "echo theirs" }] }]\n\t},\n\t"description": "kept"\n}\n`;
const REPO = fileURLToPath(new URL("../../../", import.meta.url));
/** This copy's built hook program (`npm run build`), under a made-up version. */
const program = { node: process.execPath, bundle: path.join(REPO, HOOK_BUNDLE), version: "9.9.9" };

describe("boulder install codex", () => {
	it("adds its hooks to the user's hooks.json, keeps everything else, and takes them out again byte for byte", async () => {
		const where = await place();
		const file = hooksFile("user", where);
		await mkdir(path.dirname(file), { recursive: true });
		await writeFile(file, THEIRS);
		const first = await installCodex({ ...where, scope: "user", program, root: REPO });
		expect(first.report).toMatchObject({ action: "installed", entries: 7 });
		expect(first.report.backup).not.toContain(`${where.home}/.codex`);
		const installed = JSON.parse(await readFile(file, "utf8"));
		expect(installed.description).toBe("kept");
		expect(installed.hooks.Stop).toHaveLength(2);
		expect((await installCodex({ ...where, scope: "user", program, root: REPO })).report.action).toBe("unchanged");
		expect((await uninstallCodex({ ...where, scope: "user" })).action).toBe("removed");
		expect(await readFile(file, "utf8")).toBe(THEIRS);
	});

	it("writes a project file with no path of this machine, and removes the file it created", async () => {
		const where = await place();
		await installCodex({ ...where, scope: "project", root: REPO });
		const file = hooksFile("project", where);
		const text = await readFile(file, "utf8");
		expect(text).not.toContain(where.root);
		expect(text).not.toContain(process.cwd());
		await uninstallCodex({ ...where, scope: "project" });
		await expect(readFile(file, "utf8")).rejects.toThrow(/ENOENT/);
	});

	it("refuses a hooks file that is not JSON, and leaves it untouched", async () => {
		const where = await place();
		const file = hooksFile("user", where);
		await mkdir(path.dirname(file), { recursive: true });
		await writeFile(file, "{ broken");
		await expect(installCodex({ ...where, scope: "user", program, root: REPO })).rejects.toThrow(
			/is not valid JSON.*did not touch it/,
		);
		expect(await readFile(file, "utf8")).toBe("{ broken");
	});

	it("reads back only its own commands, in both forms", () => {
		expect(parseOurCommand(hookCommand(program, "Stop"))).toMatchObject({
			form: "pinned",
			event: "Stop",
			version: "9.9.9",
		});
		expect(parseOurCommand(hookCommand(PORTABLE, "Interrupt"))).toEqual({ form: "portable", event: "Interrupt" });
		expect(parseOurCommand("echo theirs --boulder-hook")).toBeNull();
		expect(hookCommand(PORTABLE, "Stop")).toContain(`node_modules/boulder-agent/${HOOK_BUNDLE}`);
	});

	it("gives up before Codex's own timeouts, Interrupt's 3 seconds included", () => {
		expect(watchdogMs(REGISTRATIONS, "Interrupt")).toBeLessThan(3000);
		expect(watchdogMs(REGISTRATIONS, "Stop")).toBeLessThan(900_000);
		expect(watchdogMs(REGISTRATIONS, "UserPromptSubmit")).toBeLessThan(60_000);
	});
});

describe("whether Codex trusts boulder's hooks", () => {
	it("reads Codex's trust records and tells trusted, modified and untrusted hooks apart", async () => {
		const where = await place();
		await installCodex({ ...where, scope: "user", program, root: REPO });
		const file = hooksFile("user", where);
		const value = JSON.parse(await readFile(file, "utf8"));
		const records = [...trustRecords(file, value)];
		const [stopKey] = records.find(([key]) => key.includes(":stop:")) ?? [""];
		const toml = [
			...records
				.filter(([key]) => key !== stopKey)
				.map(([key, hash]) => `[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = "${hash}"`),
			`[hooks.state.${JSON.stringify(stopKey)}]\ntrusted_hash = "sha256:${"0".repeat(64)}"`,
		].join("\n");
		const trust = trustOf(file, value, readHookStates(toml), () => true);
		expect(trust.filter((one) => one.status === "modified").map((one) => one.event)).toEqual(["Stop"]);
		expect(trust.filter((one) => one.status === "trusted")).toHaveLength(6);
		expect(trustOf(file, value, readHookStates(""), () => true).every((one) => one.status === "untrusted")).toBe(true);
	});

	it("hashes a hook's identity as Codex does: event, matcher, and the normalised handler", () => {
		const handler = { type: "command", command: "echo hi", timeout: 30 };
		expect(hookTrustHash("PostToolUse", "^x$", handler)).not.toBe(hookTrustHash("PostToolUse", undefined, handler));
		expect(hookTrustHash("Stop", undefined, { ...handler, async: false })).toBe(
			hookTrustHash("Stop", undefined, handler),
		);
		expect(hookTrustHash("Stop", undefined, handler)).toMatch(/^sha256:[0-9a-f]{64}$/);
	});

	it("reads a project's trust level", () => {
		const toml =
			'[projects."/home/me/app"]\ntrust_level = "trusted"\n[projects."/home/me/other"]\ntrust_level = "untrusted"\n';
		expect(projectTrusted(toml, "/home/me/app")).toBe(true);
		expect(projectTrusted(toml, "/home/me/other")).toBe(false);
		expect(projectTrusted(toml, "/elsewhere")).toBe(false);
	});

	it("says in boulder doctor that untrusted hooks do nothing, and how to trust them", async () => {
		const where = await place();
		await installCodex({ ...where, scope: "user", root: REPO });
		const findings = await checkCodexHooks(where, "0.1.0");
		expect(findings).toContainEqual(
			expect.objectContaining({
				level: "problem",
				message: expect.stringMatching(/does not trust/),
				fix: expect.stringMatching(/\/hooks/),
			}),
		);
		const file = hooksFile("user", where);
		const records = trustRecords(file, JSON.parse(await readFile(file, "utf8")));
		await writeFile(
			path.join(where.env.CODEX_HOME, "config.toml"),
			[...records].map(([key, hash]) => `[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = "${hash}"\n`).join(""),
		);
		const trusted = await checkCodexHooks(where, "0.1.0");
		expect(trusted.filter((finding) => finding.level !== "ok")).toEqual([]);
	});
});
