/**
 * The bundled hook program, run as Copilot CLI runs it, against an event log
 * Copilot writes late: Copilot (1.0.102) starts agentStop before the turn's
 * lines, and the invocation's own `hook.start` line, are in
 * `events.jsonl`. The hook must wait for this invocation's own line and
 * decide on this turn, not on the previous one.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { appendFile, copyFile, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const BUNDLE = fileURLToPath(new URL("../../../dist/hook/boulder-hook.cjs", import.meta.url));
const DB = fileURLToPath(new URL("../../fixtures/copilot/session-small.db", import.meta.url));
const SESSION = "5e2f4c1a-0d8b-4a55-9c53-3b1f2e7a9d10";

let root: string;
let project: string;
let log: string;
let env: NodeJS.ProcessEnv;
let stamp = Date.UTC(2026, 11, 1, 12, 0, 0);

beforeEach(async () => {
	root = await realpath(await mkdtemp(path.join(tmpdir(), "boulder-copilot-late-")));
	project = path.join(root, "project");
	await mkdir(path.join(project, ".git"), { recursive: true });
	const state = path.join(root, "copilot-home", "session-state", SESSION);
	await mkdir(state, { recursive: true });
	// Two items open (api-routes, theme-toggle): every stop of the main agent is a nudge.
	await copyFile(DB, path.join(state, "session.db"));
	log = path.join(state, "events.jsonl");
	await writeFile(log, `${line("session.start", { sessionId: SESSION })}\n`);
	env = {
		PATH: process.env.PATH,
		HOME: path.join(root, "home"),
		XDG_CONFIG_HOME: path.join(root, "config"),
		XDG_CACHE_HOME: path.join(root, "cache"),
		BOULDER_STATE_HOME: path.join(root, "state"),
		COPILOT_PROJECT_DIR: project,
	};
});

afterEach(() => rm(root, { recursive: true, force: true }));

let ids = 0;
function line(type: string, data: Record<string, unknown>): string {
	ids++;
	return JSON.stringify({ type, data, id: `line-${ids}`, timestamp: new Date(stamp).toISOString(), parentId: null });
}

function input(fields: Record<string, unknown>): Record<string, unknown> {
	return { sessionId: SESSION, timestamp: stamp, cwd: project, ...fields };
}

/** One turn as Copilot logs it: the prompt (or a block's reason), the reply, then agentStop's own hook.start. */
function turnLines(prompt: string, reply: string, stop: Record<string, unknown>): string {
	return `${[
		line("user.message", { content: prompt, delivery: "idle" }),
		line("session.usage_record", { usage: { inputTokens: 100, outputTokens: 20 } }),
		line("assistant.message", { content: reply, toolRequests: [] }),
		line("hook.start", { hookType: "agentStop", input: stop }),
	].join("\n")}\n`;
}

function runHook(event: string, stdin: Record<string, unknown>): Promise<{ code: number | null; stdout: string }> {
	const child = spawn(process.execPath, [BUNDLE, "copilot", event], { env, cwd: project });
	let stdout = "";
	child.stdout.on("data", (chunk: Buffer) => {
		stdout += chunk.toString();
	});
	child.stdin.end(JSON.stringify(stdin));
	return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout })));
}

async function decisions(): Promise<{ reason: string }[]> {
	const text = await readFile(path.join(project, ".boulder", "decisions.jsonl"), "utf8");
	return text
		.split("\n")
		.filter((entry) => entry.trim() !== "")
		.map((entry) => JSON.parse(entry) as { reason: string });
}

describe.runIf(existsSync(BUNDLE))("Copilot CLI's agentStop against an event log written late", () => {
	it("waits for this stop's own line and nudges on this turn, not the last one", async () => {
		await runHook("userPromptSubmitted", input({ prompt: "Do the list." }));
		stamp += 1000;
		const first = input({ transcriptPath: log, stopReason: "end_turn", stop_hook_active: false });
		await appendFile(log, turnLines("Do the list.", "I started.", first));
		const nudge = await runHook("agentStop", first);
		const reason = (JSON.parse(nudge.stdout) as { decision: string; reason: string }).reason;
		await runHook("userPromptSubmitted", input({ prompt: reason }));

		// The continuation turn ends; Copilot runs the hook, and writes the turn 300 ms later.
		stamp += 1000;
		const second = input({ transcriptPath: log, stopReason: "end_turn", stop_hook_active: true });
		const running = runHook("agentStop", second);
		await new Promise((resolve) => setTimeout(resolve, 300));
		await appendFile(log, turnLines(reason, "Still working.", second));
		const answer = await running;

		expect(answer.code).toBe(0);
		expect(JSON.parse(answer.stdout)).toMatchObject({ decision: "block" });
		expect((await decisions()).filter((entry) => entry.reason === "turn-unsafe")).toEqual([]);
	});
});
