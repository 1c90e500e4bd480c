/** The portable hook command as Gemini CLI runs it: `bash -c`, after it put the quoted project folder in. */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import { hookCommand as spelled } from "../../../src/adapters/command-hook/spelling.js";
import { install } from "../../../src/adapters/gemini/dialect.js";
import { type HookForm, PORTABLE } from "../../../src/adapters/shared/hook-form.js";

const hookCommand = (form: HookForm, event: string) => spelled(install.command, form, event);

let dir: string;

beforeEach(async () => {
	dir = await mkdtemp(path.join(os.tmpdir(), "boulder-gemini-portable-"));
});

describe("the portable command", () => {
	it("runs the portable command as Gemini CLI does, after it put the quoted project folder in", async () => {
		const project = path.join(dir, "my project");
		const bundle = path.join(project, "node_modules", "boulder-agent", "dist", "hook", "boulder-hook.cjs");
		await mkdir(path.dirname(bundle), { recursive: true });
		await writeFile(bundle, "console.log(JSON.stringify(process.argv.slice(2)));\n");
		const command = hookCommand(PORTABLE, "AfterAgent").replaceAll("$GEMINI_PROJECT_DIR", `'${project}'`);
		const env = { PATH: process.env.PATH, HOME: path.join(dir, "home") };
		const { stdout } = await promisify(execFile)("bash", ["-c", command], { env });
		expect(JSON.parse(stdout)).toEqual(["gemini", "AfterAgent", "--boulder-hook=portable"]);
		const none = await promisify(execFile)("bash", ["-c", command.replaceAll(project, dir)], { env });
		expect(none.stdout).toBe("");
	});
});
