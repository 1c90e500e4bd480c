/**
 * Terminal escapes from a plan title never reach a harness through a hook's
 * answer: every text of every harness's answer format leaves
 * `runCommandHook` with its control characters escaped, and the real Claude
 * Code hook's block carries none.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runClaudeCodeHook } from "../../../src/adapters/claude-code/dialect.js";
import type { CommandHookDialect } from "../../../src/adapters/command-hook/dialect.js";
import { runCommandHook } from "../../../src/adapters/command-hook/runtime.js";
import { answerFor, contextAnswer, type HookAnswer } from "../../../src/adapters/shared/hook-answer.js";
import { parseCommandHookInput } from "../../../src/adapters/shared/hook-input.js";
import type { IdleResult } from "../../../src/engine/engine.js";
import {
	assistantLines,
	memoryEngine,
	promptLine,
	SESSION,
	tempDir,
	text,
	writeTranscript,
} from "../claude-code/helpers.js";

/** A window title, a screen clear, a clipboard write (OSC 52), a bare BEL and a C1 CSI. */
const HOSTILE = "Fix \u001b]0;pwned\u0007 it \u001b[2J now \u001b]52;c;ZWNobyBoaQ==\u0007 \u009b31m end";
// biome-ignore lint/suspicious/noControlCharactersInRegex: what must never be printed
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const ref = { harness: "test", sessionId: "s1" };
const inject = {
	kind: "inject",
	reason: "continue",
	detail: "",
	key: "k1",
	text: `Next: ${HOSTILE}`,
	retryAt: null,
} as unknown as IdleResult;
const complete = {
	kind: "complete",
	reason: "complete",
	detail: "",
	key: "k2",
	text: `Done: ${HOSTILE}`,
	retryAt: null,
} as unknown as IdleResult;
const notice = {
	kind: "skip",
	reason: "budget-turns",
	detail: HOSTILE,
	notice: true,
	key: null,
	text: null,
	retryAt: null,
} as unknown as IdleResult;

async function printed(answer: HookAnswer): Promise<{ stdout: string; stderr: string; code: number }> {
	const { engine } = memoryEngine();
	const dialect: CommandHookDialect<ReturnType<typeof parse>> = {
		harness: "test",
		events: ["Stop"],
		registrations: [{ event: "Stop", timeout: 60 }],
		projectDirVar: null,
		parse: (input, event) => parseCommandHookInput(input, event, ["Stop"]),
		handle: async () => answer,
		stopEvent: "Stop",
	};
	const out = { stdout: "", stderr: "", code: -1 };
	out.code = await runCommandHook(
		["Stop"],
		{
			stdin: [JSON.stringify({ session_id: "s1", hook_event_name: "Stop" })],
			stdout: { write: (chunk: string) => (out.stdout += chunk) },
			stderr: { write: (chunk: string) => (out.stderr += chunk) },
			env: {},
			cwd: "/",
		},
		dialect,
		async () => ({ engine, warnings: [] }),
	);
	return out;
}
const parse = (text: string) => {
	const parsed = parseCommandHookInput(text, "Stop", ["Stop"]);
	if (!parsed.ok) throw new Error(parsed.problem);
	return parsed.input;
};

describe("every harness's answer, as the hook prints it", () => {
	const { engine } = memoryEngine();
	const answers: [string, HookAnswer][] = [
		["Claude Code, Codex, Qwen Code: a block's reason", answerFor(inject, ref, engine, { delivered: true })],
		["Claude Code, Codex, Qwen Code: the systemMessage of a completed work", answerFor(complete, ref, engine)],
		["Claude Code, Codex, Qwen Code: a limit's notice", answerFor(notice, ref, engine)],
		["Gemini CLI: a deny's reason", answerFor(inject, ref, engine, { delivered: true, decision: "deny" })],
		["Gemini CLI: a systemMessage", answerFor(complete, ref, engine, { delivered: true, decision: "deny" })],
		["Copilot CLI: a block's reason", answerFor(inject, ref, engine, { notices: false })],
		["any: a SessionStart's additionalContext", contextAnswer("SessionStart", `Resume: ${HOSTILE}`)],
		[
			"any: nested context",
			{
				output: {
					hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecisionReason: HOSTILE, list: [HOSTILE] },
				},
			},
		],
	];

	for (const [name, answer] of answers) {
		it(`${name}: no control character, the escapes shown as text`, async () => {
			const out = await printed(answer);
			expect(out.stdout).not.toBe("");
			const decoded = JSON.stringify(JSON.parse(out.stdout));
			expect(JSON.parse(out.stdout)).not.toEqual(answer.output);
			expect(Object.values(flat(JSON.parse(out.stdout))).some((value) => CONTROL.test(value))).toBe(false);
			expect(decoded).toContain("\\\\x1b]0;pwned\\\\x07");
			expect(decoded).toContain("\\\\x9b31m");
		});
	}

	it("a wake's text too (stderr, exit 2)", async () => {
		const out = await printed({ output: null, wake: `Wake: ${HOSTILE}` });
		expect(out.code).toBe(2);
		expect(CONTROL.test(out.stderr.replaceAll("\n", ""))).toBe(false);
		expect(out.stderr).toContain("\\x1b[2J");
	});
});

function flat(value: unknown, into: Record<string, string> = {}, at = ""): Record<string, string> {
	if (typeof value === "string") into[at] = value;
	else if (value && typeof value === "object") {
		for (const [key, item] of Object.entries(value)) flat(item, into, `${at}.${key}`);
	}
	return into;
}

describe("the Claude Code Stop hook, end to end in process", () => {
	it("blocks with a reason that names the item with its escapes shown, never sent", async () => {
		const worktree = await tempDir("boulder-safe-answer-");
		await mkdir(path.join(worktree, ".git"));
		const env = {
			HOME: path.join(worktree, "home"),
			XDG_CONFIG_HOME: path.join(worktree, "config"),
			BOULDER_STATE_HOME: path.join(worktree, "state"),
		};
		const transcript = await writeTranscript(worktree, [
			promptLine("Go."),
			...assistantLines("msg_a", [text("Done.")]),
		]);
		const run = async (event: string, fields: Record<string, unknown>) => {
			let stdout = "";
			await runClaudeCodeHook([event], {
				stdin: [
					Buffer.from(
						JSON.stringify({
							session_id: SESSION,
							transcript_path: transcript,
							cwd: worktree,
							hook_event_name: event,
							...fields,
						}),
					),
				],
				stdout: { write: (chunk: string) => (stdout += chunk) },
				stderr: { write: () => true },
				env,
				cwd: worktree,
			});
			return stdout;
		};
		await run("UserPromptSubmit", { prompt: "Go." });
		const todos = [{ content: HOSTILE, status: "pending", activeForm: "x" }];
		await run("PostToolUse", { tool_name: "TodoWrite", tool_input: { todos } });

		const stdout = await run("Stop", { last_assistant_message: "Done." });

		const answer = JSON.parse(stdout) as { decision: string; reason: string };
		expect(answer.decision).toBe("block");
		expect(CONTROL.test(answer.reason.replaceAll("\n", ""))).toBe(false);
		expect(answer.reason).toContain("Fix \\x1b]0;pwned\\x07 it \\x1b[2J now");
	});
});
