import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { checkClaudeCodeHooks } from "../../../src/adapters/claude-code/doctor.js";
import type { HookProgram } from "../../../src/adapters/claude-code/hook-config.js";
import { installClaudeCode, settingsFile } from "../../../src/adapters/claude-code/install.js";
import { tempDir } from "./helpers.js";

let dir: string;
let place: { cwd: string; env: NodeJS.ProcessEnv };
let program: HookProgram;

beforeEach(async () => {
	dir = await tempDir("boulder-doctor-");
	place = { cwd: path.join(dir, "proj"), env: { HOME: path.join(dir, "home") } };
	const bundle = path.join(dir, "pkg", "dist", "hook", "claude-code.cjs");
	await mkdir(path.dirname(bundle), { recursive: true });
	await writeFile(bundle, "// the hook");
	program = { node: process.execPath, bundle, version: "1.2.3" };
});

const check = () => checkClaudeCodeHooks(place, "1.2.3");

describe("boulder doctor's Claude Code check", () => {
	it("says, without alarm, when the hooks are not installed", async () => {
		const findings = await check();

		expect(findings).toEqual([expect.objectContaining({ level: "ok", message: expect.stringMatching(/not in/) })]);
	});

	it("says where the hooks are installed when they are current", async () => {
		await installClaudeCode({ ...place, scope: "project", program });

		const findings = await check();

		expect(findings).toEqual([
			expect.objectContaining({
				level: "ok",
				file: settingsFile("project", place),
				message: expect.stringMatching(/1\.2\.3/),
			}),
		]);
	});

	it("warns when another version of boulder installed them", async () => {
		await installClaudeCode({ ...place, scope: "local", program: { ...program, version: "0.9.0" } });

		const [finding] = await check();

		expect(finding).toMatchObject({
			level: "warn",
			message: expect.stringMatching(/installed by boulder 0\.9\.0; this is 1\.2\.3/),
			fix: "`boulder install claude-code --local`",
		});
	});

	it("reports hooks whose program is gone as a problem", async () => {
		await installClaudeCode({ ...place, scope: "user", program });
		await writeFile(program.bundle, "");
		const { rm } = await import("node:fs/promises");
		await rm(program.bundle);

		const findings = await check();

		expect(findings).toContainEqual(
			expect.objectContaining({
				level: "problem",
				message: expect.stringContaining(`${program.bundle}, which does not exist`),
			}),
		);
	});

	it("warns when the hooks are installed twice, so every event runs boulder twice", async () => {
		await installClaudeCode({ ...place, scope: "project", program });
		await installClaudeCode({ ...place, scope: "user", program });

		const findings = await check();

		expect(findings.at(-1)).toMatchObject({
			level: "warn",
			message: expect.stringMatching(/more than one settings file \(project, user\)/),
		});
	});

	it("warns when some of the hooks were taken out by hand", async () => {
		const report = await installClaudeCode({ ...place, scope: "project", program });
		const settings = JSON.parse(await readFile(report.file, "utf8"));
		delete settings.hooks.PreCompact;
		delete settings.hooks.SubagentStop;
		await writeFile(report.file, JSON.stringify(settings));

		const [finding] = await check();

		expect(finding).toMatchObject({ level: "warn", message: expect.stringMatching(/miss SubagentStop, PreCompact$/) });
	});

	it("reports a settings file that is not JSON", async () => {
		const file = settingsFile("project", place);
		await mkdir(path.dirname(file), { recursive: true });
		await writeFile(file, "{ nope");

		const findings = await check();

		expect(findings[0]).toMatchObject({ level: "problem", file });
	});
});
