/**
 * A bad config turns boulder off; the user hears it in Claude Code, once, on
 * the first event after it went bad, and `boulder why` says it.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runClaudeCodeHook } from "../../../src/adapters/claude-code/dialect.js";
import { FileStore } from "../../../src/state/file-store.js";
import { SESSION, tempDir } from "./helpers.js";

let worktree: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
	worktree = await tempDir("boulder-config-notice-");
	await mkdir(path.join(worktree, ".git"));
	env = { HOME: path.join(worktree, "home"), XDG_CONFIG_HOME: path.join(worktree, "config") };
});

async function hook(event: string, fields: Record<string, unknown> = {}): Promise<string> {
	let stdout = "";
	const input = { session_id: SESSION, transcript_path: null, cwd: worktree, hook_event_name: event, ...fields };
	await runClaudeCodeHook([event], {
		stdin: [Buffer.from(JSON.stringify(input))],
		stdout: { write: (chunk: string) => (stdout += chunk) },
		stderr: { write: () => true },
		env,
		cwd: worktree,
	});
	return stdout;
}

describe("a bad config", () => {
	it("is told once as a systemMessage where boulder keeps state, and logged once", async () => {
		await hook("UserPromptSubmit", { prompt: "Go." });
		await writeFile(path.join(worktree, "boulder.config.json"), '{"stagnationLimit":0}');
		const first = JSON.parse(await hook("PostToolUse", { tool_name: "Edit" })) as { systemMessage: string };
		expect(first.systemMessage).toContain("not continuing anything until its config is fixed");
		expect(first.systemMessage).toContain("stagnationLimit");
		expect(await hook("Stop")).toBe("");
		expect(await hook("Stop")).toBe("");
		const log = await new FileStore(worktree).readDecisions();
		expect(log.filter((record) => record.reason === "config-invalid")).toHaveLength(1);
	});

	it("is told again once it was fixed and broke again", async () => {
		await hook("UserPromptSubmit", { prompt: "Go." });
		const config = path.join(worktree, "boulder.config.json");
		await writeFile(config, '{"stagnationLimit":0}');
		expect(await hook("Stop")).toContain("systemMessage");
		await writeFile(config, "{}");
		await hook("UserPromptSubmit", { prompt: "Go on." });
		await writeFile(config, '{"stagnationLimit":0}');
		expect(await hook("Stop")).toContain("systemMessage");
	});

	it("is told at the end of each turn, never on tool calls, in a folder where boulder keeps no state", async () => {
		await writeFile(path.join(worktree, "boulder.config.json"), "{ not json");
		expect(await hook("PostToolUse", { tool_name: "Edit" })).toBe("");
		expect(JSON.parse(await hook("Stop")).systemMessage).toContain("is not valid JSON");
	});
});
