/**
 * The bundled hook program against a transcript Claude Code writes late:
 * the Stop hook starts before the turn's lines are in the file. The hook
 * must wait for the reply Claude Code reported (`last_assistant_message`)
 * and decide on this turn, not on the previous one. Needs `npm run build`.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { appendFile, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { isolatedHookWorktree } from "../hook/isolated-worktree.js";
import { assistantLines, jsonl, promptLine, SESSION, stopFeedbackLine, text, writeTranscript } from "./helpers.js";

const BUNDLE = fileURLToPath(new URL("../../../dist/hook/claude-code.cjs", import.meta.url));

let worktree: string;
let transcript: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
	({ worktree, env } = await isolatedHookWorktree("boulder-late-transcript-"));
	transcript = await writeTranscript(worktree, [promptLine("Go."), ...assistantLines("msg_a", [text("Started.")])]);
});

function runHook(event: string, fields: Record<string, unknown>): Promise<string> {
	const child = spawn(process.execPath, [BUNDLE, event], { env, cwd: worktree });
	let stdout = "";
	child.stdout.on("data", (chunk: Buffer) => {
		stdout += chunk.toString();
	});
	child.stdin.end(
		JSON.stringify({
			session_id: SESSION,
			transcript_path: transcript,
			cwd: worktree,
			hook_event_name: event,
			...fields,
		}),
	);
	return new Promise((resolve) => child.on("close", () => resolve(stdout)));
}

describe.runIf(existsSync(BUNDLE))("Claude Code's Stop against a transcript written late", () => {
	it("waits for the reported reply and nudges on this turn, not the last one", async () => {
		await runHook("UserPromptSubmit", { prompt: "Go." });
		const todos = [
			{ content: "One", status: "pending", activeForm: "One" },
			{ content: "Two", status: "pending", activeForm: "Two" },
		];
		await runHook("PostToolUse", { tool_name: "TodoWrite", tool_input: { todos } });
		const first = JSON.parse(await runHook("Stop", { last_assistant_message: "Started." })) as { reason: string };

		// The continuation ends; Claude Code runs Stop, and its lines reach the file 400 ms later.
		const running = runHook("Stop", { last_assistant_message: "Still on it.", stop_hook_active: true });
		await new Promise((resolve) => setTimeout(resolve, 400));
		await appendFile(
			transcript,
			jsonl([stopFeedbackLine(first.reason), ...assistantLines("msg_b", [text("Still on it.")])]),
		);

		expect(JSON.parse(await running)).toMatchObject({ decision: "block" });
		const log = await readFile(path.join(worktree, ".boulder", "decisions.jsonl"), "utf8");
		expect(log).not.toContain("turn-unsafe");
	});
});
