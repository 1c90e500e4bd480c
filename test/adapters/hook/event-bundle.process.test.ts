/**
 * Claude Code's PreToolUse, which runs before every file edit (one process
 * each), has a hook bundle of its own that opens no `Engine`: the loader
 * picks it for that event alone, and it holds none of the Stop path (the
 * nudges, verification, resume context). What it answers is pinned by the
 * PreToolUse tests of the Claude Code adapter and its e2e suites, which run
 * through the same loader.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CONTINUATION_PROMPT } from "../../../src/core/prompts/continuation.prompt.js";
import { RESUME_CONTEXT } from "../../../src/core/prompts/resume.prompt.js";
import { VERIFY_FAILED_PROMPT } from "../../../src/core/prompts/verify-failed.prompt.js";
import { tempDir } from "../claude-code/helpers.js";

const HOOKS = fileURLToPath(new URL("../../../dist/hook/", import.meta.url));
const PRE_TOOL_USE = path.join(HOOKS, "claude-code-PreToolUse-main.cjs");
const MAIN = path.join(HOOKS, "claude-code-main.cjs");

/** A line of each Stop-path text, in ASCII as the bundles hold it. */
const STOP_PATH_TEXTS = [CONTINUATION_PROMPT, VERIFY_FAILED_PROMPT, RESUME_CONTEXT].map(
	(text) => text.split("\n").find((line) => line.length > 30 && /^[\x20-\x7e]+$/.test(line)) as string,
);

describe.runIf(existsSync(PRE_TOOL_USE))("Claude Code's PreToolUse bundle", () => {
	it("holds none of the Stop path, which the harness's main bundle does", () => {
		const own = readFileSync(PRE_TOOL_USE, "utf8");
		const main = readFileSync(MAIN, "utf8");

		expect(STOP_PATH_TEXTS).toHaveLength(3);
		for (const text of STOP_PATH_TEXTS) {
			expect(main).toContain(text);
			expect(own).not.toContain(text);
		}
		expect(own.length).toBeLessThan(main.length * 0.8);
	});

	it("is the one the loader runs for PreToolUse, under either program and for Claude Code alone", async () => {
		const folder = await tempDir("boulder-event-bundle-");
		for (const loader of ["claude-code.cjs", "boulder-hook.cjs"])
			copyFileSync(path.join(HOOKS, loader), path.join(folder, loader));
		// Stand-ins that say which bundle ran.
		for (const bundle of ["claude-code-main.cjs", "claude-code-PreToolUse-main.cjs", "droid-main.cjs"]) {
			writeFileSync(path.join(folder, bundle), `process.stdout.write(${JSON.stringify(bundle)});\n`);
		}
		const env = { PATH: process.env.PATH, HOME: folder, XDG_CACHE_HOME: path.join(folder, "cache") };
		const ran = (...args: string[]) =>
			spawnSync(
				process.execPath,
				args.map((arg, at) => (at === 0 ? path.join(folder, arg) : arg)),
				{
					env,
					input: "{}",
				},
			).stdout.toString();

		expect(ran("claude-code.cjs", "PreToolUse")).toBe("claude-code-PreToolUse-main.cjs");
		expect(ran("claude-code.cjs", "Stop")).toBe("claude-code-main.cjs");
		expect(ran("claude-code.cjs", "PostToolUse")).toBe("claude-code-main.cjs");
		expect(ran("boulder-hook.cjs", "claude-code", "PreToolUse")).toBe("claude-code-PreToolUse-main.cjs");
		expect(ran("boulder-hook.cjs", "droid", "PreToolUse")).toBe("droid-main.cjs");
	});
});
