/**
 * The portable hook command, run the way Claude Code runs it (`sh -c`), in
 * each place a teammate may have boulder: the project's devDependency, the
 * link `boulder install` makes for the user, a global install on the PATH —
 * and nowhere, where it must print one notice at session start and otherwise
 * nothing, always exiting 0 (no stream of hook errors).
 */
import { spawnSync } from "node:child_process";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import {
	HOOK_BIN,
	HOOK_LINK,
	hookCommand,
	LINK_GONE_NOTICE,
	NOT_INSTALLED_NOTICE,
} from "../../../src/adapters/claude-code/dialect.js";
import { hookLinkText } from "../../../src/adapters/claude-code/install.js";
import { PORTABLE } from "../../../src/adapters/shared/hook-form.js";
import { tempDir } from "./helpers.js";

let dir: string;
let project: string;
let data: string;
let bin: string;

beforeEach(async () => {
	dir = await tempDir("boulder-portable-");
	project = path.join(dir, "project");
	data = path.join(dir, "data");
	bin = path.join(dir, "bin");
	for (const folder of [project, data, bin]) await mkdir(folder, { recursive: true });
});

/** A stand-in hook program that says who ran it and with what. */
async function fakeHook(file: string, who: string): Promise<void> {
	await mkdir(path.dirname(file), { recursive: true });
	await writeFile(
		file,
		`#!/usr/bin/env node\nconsole.log(${JSON.stringify(who)} + " " + process.argv.slice(2).join(" "));\n`,
	);
	await chmod(file, 0o755);
}

function run(event: "SessionStart" | "Stop", extraPath: string[] = []) {
	const child = spawnSync("/bin/sh", ["-c", hookCommand(PORTABLE, event)], {
		input: "{}",
		encoding: "utf8",
		env: {
			HOME: path.join(dir, "home"),
			XDG_DATA_HOME: data,
			CLAUDE_PROJECT_DIR: project,
			PATH: [...extraPath, path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter),
		},
	});
	return { code: child.status, stdout: child.stdout.trim(), stderr: child.stderr };
}

describe("the portable hook command", () => {
	it("runs the project's own boulder first", async () => {
		await fakeHook(path.join(project, "node_modules", "boulder-agent", "dist", "hook", "claude-code.cjs"), "project");
		await fakeHook(path.join(bin, HOOK_BIN), "global");

		expect(run("Stop", [bin])).toEqual({ code: 0, stdout: "project Stop --boulder-hook=portable", stderr: "" });
	});

	it("runs the copy linked for the user next", async () => {
		const target = path.join(dir, "clone", "dist", "hook", "claude-code.cjs");
		await fakeHook(target, "linked");
		await mkdir(path.dirname(path.join(data, HOOK_LINK)), { recursive: true });
		await writeFile(path.join(data, HOOK_LINK), hookLinkText(target));
		await fakeHook(path.join(bin, HOOK_BIN), "global");

		expect(run("Stop", [bin])).toEqual({ code: 0, stdout: "linked Stop --boulder-hook=portable", stderr: "" });
	});

	it("runs a global install from the PATH last", async () => {
		await fakeHook(path.join(bin, HOOK_BIN), "global");

		expect(run("SessionStart", [bin])).toEqual({
			code: 0,
			stdout: "global SessionStart --boulder-hook=portable",
			stderr: "",
		});
	});

	it("with no boulder anywhere, prints one notice at session start and nothing on any other event, exiting 0", () => {
		const start = run("SessionStart");
		const stop = run("Stop");

		expect(start.code).toBe(0);
		expect(JSON.parse(start.stdout)).toEqual({ systemMessage: NOT_INSTALLED_NOTICE });
		expect(stop).toEqual({ code: 0, stdout: "", stderr: "" });
		expect(start.stderr).toBe("");
	});

	it("when the linked copy is gone, says so at session start and lets every other event pass, exiting 0", async () => {
		await mkdir(path.dirname(path.join(data, HOOK_LINK)), { recursive: true });
		await writeFile(path.join(data, HOOK_LINK), hookLinkText(path.join(dir, "moved-away", "claude-code.cjs")));

		const start = run("SessionStart");

		expect(start.code).toBe(0);
		expect(JSON.parse(start.stdout)).toEqual({ systemMessage: LINK_GONE_NOTICE });
		expect(run("Stop")).toEqual({ code: 0, stdout: "", stderr: "" });
	});
});
