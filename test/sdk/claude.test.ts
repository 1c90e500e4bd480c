import { describe, expect, it } from "vitest";
import type { Engine } from "../../src/engine/engine.js";
import { boulderHooks, type ClaudeHookInput } from "../../src/sdk/claude.js";
import type { EngineSource } from "../../src/sdk/engines.js";
import { memoryEngine } from "../engine/helpers.js";

const SESSION = "session-1";
const ref = { harness: "claude-code", sessionId: SESSION };
const signal = new AbortController().signal;

function engines(engine: Engine, started: string[] = []): EngineSource {
	return {
		open: async () => engine,
		bookkeeping: async () => engine,
		start: async (_folder, plan) => {
			started.push(plan);
		},
	};
}

const input = (event: string, fields: Record<string, unknown> = {}): ClaudeHookInput =>
	({ hook_event_name: event, session_id: SESSION, cwd: "/w", ...fields }) as ClaudeHookInput;

describe("boulderHooks (the Claude Agent SDK's Options.hooks)", () => {
	it("registers boulder's events, each with one callback, the tool events with the command hooks' matchers", () => {
		const { engine } = memoryEngine();
		const hooks = boulderHooks({ engines: engines(engine) });
		expect(Object.keys(hooks).sort()).toEqual(
			[
				"PreCompact",
				"PostToolUse",
				"PreToolUse",
				"SessionStart",
				"Stop",
				"StopFailure",
				"SubagentStop",
				"UserPromptSubmit",
			].sort(),
		);
		expect(hooks.PreToolUse[0]?.matcher).toBe("Edit|MultiEdit|Write|NotebookEdit");
		expect(hooks.PostToolUse[0]?.matcher).toContain("TodoWrite");
		expect(hooks.Stop[0]?.timeout).toBeGreaterThanOrEqual(60);
	});

	it("never throws into the SDK: an input without a session is recorded and the agent is let stop", async () => {
		const { engine } = memoryEngine();
		const hooks = boulderHooks({ engines: engines(engine) });

		const answer = await hooks.Stop[0]?.hooks[0]?.({ hook_event_name: "Stop" } as ClaudeHookInput, undefined, {
			signal,
		});

		expect(answer).toEqual({});
		const log = await engine.explain({ lines: 10 });
		expect(log.map((record) => record.detail)).toContainEqual(expect.stringContaining("no session_id"));
	});

	it("records the program's abort for every session it has seen, and the abort holds", async () => {
		const { engine } = memoryEngine();
		const controller = new AbortController();
		const hooks = boulderHooks({ engines: engines(engine), signal: controller.signal });
		await hooks.UserPromptSubmit[0]?.hooks[0]?.(
			input("UserPromptSubmit", { prompt: "Go.", source: "sdk" }),
			undefined,
			{
				signal,
			},
		);
		await hooks.PostToolUse[0]?.hooks[0]?.(
			input("PostToolUse", {
				tool_name: "TodoWrite",
				tool_input: { todos: [{ content: "A", status: "pending", activeForm: "A" }] },
			}),
			undefined,
			{ signal },
		);

		controller.abort();
		await expect
			.poll(async () => (await engine.explain({ lines: 10 })).map((record) => record.reason))
			.toContain("user-aborted");

		expect(await engine.onIdle(ref, {})).toMatchObject({ kind: "skip", reason: "user-aborted" });
	});

	it("starts the plan it is given once, before the first event", async () => {
		const { engine } = memoryEngine();
		const started: string[] = [];
		const hooks = boulderHooks({ engines: engines(engine, started), cwd: "/w", plan: "PLAN.md" });
		for (const event of ["SessionStart", "UserPromptSubmit"] as const) {
			await hooks[event][0]?.hooks[0]?.(input(event, { source: "startup", prompt: "Go." }), undefined, { signal });
		}
		expect(started).toEqual(["PLAN.md"]);
	});

	it("tells, and does nothing else, when given a plan without the project folder", async () => {
		const { engine } = memoryEngine();
		const hooks = boulderHooks({ engines: engines(engine), plan: "PLAN.md" });

		const answer = await hooks.UserPromptSubmit[0]?.hooks[0]?.(
			input("UserPromptSubmit", { prompt: "Go." }),
			undefined,
			{
				signal,
			},
		);

		expect(answer).toEqual({});
		const log = await engine.explain({ lines: 10 });
		expect(log.map((record) => record.detail)).toContainEqual(expect.stringContaining("needs `cwd` too"));
	});
});
