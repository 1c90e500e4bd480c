import { describe, expect, it } from "vitest";
import { handleHook, provenanceOf } from "../../../src/adapters/gemini/events.js";
import { type TurnReading, turnOf } from "../../../src/adapters/gemini/transcript.js";
import { Config } from "../../../src/core/config.js";
import { continuationPrompt } from "../../../src/core/prompts.js";
import { Engine } from "../../../src/engine/engine.js";
import { MemoryStore } from "../../../src/state/memory-store.js";
import { view } from "../../core/builders.js";
import { cancelledNote, header, hookInput, jsonl, prompt, reply, toolCall, writeTodos } from "./helpers.js";

const clock = {
	t: Date.UTC(2026, 11, 1, 9, 0, 0),
	now(): number {
		return this.t;
	},
};

/** A session of Gemini CLI as its hooks see it: a transcript that grows, and the engine over a memory store. */
function session() {
	const engine = new Engine({
		store: new MemoryStore("/w", { clock }),
		config: Config.parse({}),
		clock,
		plans: { read: async () => null },
	});
	const lines: Record<string, unknown>[] = [header()];
	const deps = { engine, readTurn: async (): Promise<TurnReading> => turnOf(jsonl(lines)) };
	return {
		engine,
		lines,
		/** A prompt goes in: the transcript records it, then BeforeAgent fires. */
		async promptIn(text: string) {
			clock.t += 1000;
			lines.push(prompt(text));
			return handleHook(hookInput("BeforeAgent", { prompt: text }), deps);
		},
		async todos(statuses: string[]) {
			lines.push(...writeTodos(statuses));
			const todos = statuses.map((status, index) => ({
				description: `Item ${String.fromCharCode(65 + index)}`,
				status,
			}));
			return handleHook(hookInput("AfterTool", { tool_name: "write_todos", tool_input: { todos } }), deps);
		},
		/** The model's last reply of the turn, then AfterAgent; returns the hook's output. */
		async turnEnds(text: string | null, active = false) {
			if (text !== null) lines.push(reply(text));
			const answer = await handleHook(
				hookInput("AfterAgent", { prompt: "Fix both items.", prompt_response: text ?? "", stop_hook_active: active }),
				deps,
			);
			return answer.output;
		},
	};
}

async function lastDecision(engine: Engine) {
	return (await engine.explain({ lines: 100 })).filter((line) => line.kind !== "event").at(-1);
}

/**
 * Drives a stalled agent the way Gemini CLI does: every `deny` comes back as
 * the next prompt, through BeforeAgent, until boulder lets it stop. `echo`
 * says what BeforeAgent is given for our continuation (Gemini CLI gives our
 * text; null leaves BeforeAgent out, as Claude Code does). Returns the nudges.
 */
async function stall(echo: ((text: string) => string) | null): Promise<number> {
	const s = session();
	await s.promptIn("Fix both items.");
	await s.todos(["in_progress", "pending"]);
	let output = await s.turnEnds("I will look into it.");
	let nudges = 0;
	while (output?.decision === "deny" && nudges < 50) {
		nudges++;
		const text = String(output.reason);
		if (echo) await s.promptIn(echo(text));
		else {
			clock.t += 1000;
			s.lines.push(prompt(text));
		}
		output = await s.turnEnds("Still thinking.", true);
	}
	return nudges;
}

describe("Gemini CLI's events", () => {
	it("stops a stalled agent at the stagnation limit although BeforeAgent sees every continuation", async () => {
		const withoutEcho = await stall(null);
		expect(withoutEcho).toBe(3);
		expect(await stall((text) => text)).toBe(withoutEcho);
	});

	it("would never stop it if our continuation counted as the user's turn (what the test above guards)", async () => {
		// The same continuation, quoted by a person: a real user turn, which opens a new episode each time.
		expect(await stall((text) => `Please: ${text}`)).toBe(50);
	});

	it("reads our own continuation as a continuation and anything else as the user's", () => {
		expect(provenanceOf(continuationPrompt(view("x>.")))).toBe("continuation");
		expect(provenanceOf("Fix both items.")).toBe("user");
	});

	it("continues with Gemini CLI's deny, naming the next item, then says the work is complete", async () => {
		const s = session();
		await s.promptIn("Work through the list.");
		await s.todos(["in_progress", "pending"]);
		const first = await s.turnEnds("Started.");
		expect(first).toEqual({ decision: "deny", reason: expect.stringMatching(/0 of 2 done[\s\S]*Item A/) });
		await s.promptIn(String(first?.reason));
		await s.todos(["completed", "completed"]);
		const last = await s.turnEnds("Both done.", true);
		expect(last).toEqual({ systemMessage: expect.stringMatching(/done/i) });
	});

	it("takes blocked and cancelled items as not open", async () => {
		const s = session();
		await s.promptIn("Work.");
		await s.todos(["completed", "blocked", "cancelled"]);
		expect((await s.turnEnds("Waiting on access for B."))?.decision).toBeUndefined();
		expect(await lastDecision(s.engine)).toMatchObject({ kind: "skip", reason: "no-open-work" });
	});

	it("does not answer a question the agent asked the user", async () => {
		const s = session();
		await s.promptIn("Build the store.");
		await s.todos(["in_progress", "pending"]);
		expect(await s.turnEnds("Should I use Postgres or SQLite? Let me know which you prefer.")).toBeNull();
		expect(await lastDecision(s.engine)).toMatchObject({ kind: "skip", reason: "awaiting-user" });
	});

	it("never continues a turn the user cancelled (Esc), although Gemini CLI fires AfterAgent for it", async () => {
		const s = session();
		await s.promptIn("Work.");
		await s.todos(["in_progress", "pending"]);
		s.lines.push(cancelledNote());
		expect(await s.turnEnds(null)).toBeNull();
		expect(await lastDecision(s.engine)).toMatchObject({ kind: "skip", reason: "user-aborted" });
	});

	it("never continues a turn whose transcript shows no finished reply (a failed call)", async () => {
		const s = session();
		await s.promptIn("Work.");
		await s.todos(["in_progress", "pending"]);
		expect(await s.turnEnds(null)).toBeNull();
		expect(await lastDecision(s.engine)).toMatchObject({ kind: "skip", reason: "turn-unsafe" });
	});

	it("waits for the user while the agent is in plan mode", async () => {
		const s = session();
		await s.promptIn("Plan the work.");
		await s.todos(["pending", "pending"]);
		s.lines.push(...toolCall([{ name: "enter_plan_mode", args: {} }]));
		expect(await s.turnEnds("Here is the plan. Approve it to start.")).toBeNull();
		expect(await lastDecision(s.engine)).toMatchObject({ kind: "skip", reason: "awaiting-user" });
	});

	it("stops denying, and counts the nudge undelivered, when Gemini CLI ends the turn without a model request", async () => {
		const s = session();
		await s.promptIn("Fix both items.");
		await s.todos(["in_progress", "pending"]);
		const nudge = await s.turnEnds("I will look into it.");
		expect(nudge?.decision).toBe("deny");
		// "Potential loop detected": BeforeAgent fires for the deny's text, then the turn stops before any
		// model request, so nothing reaches the transcript, and AfterAgent fires all the same.
		clock.t += 1000;
		const deps = { engine: s.engine, readTurn: async () => turnOf(jsonl(s.lines)) };
		await handleHook(hookInput("BeforeAgent", { prompt: String(nudge?.reason) }), deps);
		for (let again = 0; again < 3; again++) expect(await s.turnEnds(null, true)).toBeNull();

		const log = await s.engine.explain({ lines: 100 });
		const failed = log.filter((line) => line.reason === "delivery-failed");
		expect(failed).toHaveLength(1);
		expect(failed[0]?.detail).toContain("without a model request");
		const skips = log.filter((line) => line.reason === "turn-unsafe");
		expect(skips[0]?.detail).toContain("the nudge never reached the model");
	});

	it("takes a continuation the user cancelled (Gemini CLI rewrites its prompt away) for an interrupt, not a lost nudge", async () => {
		const s = session();
		await s.promptIn("Fix both items.");
		await s.todos(["in_progress", "pending"]);
		const nudge = await s.turnEnds("I will look into it.");
		await s.promptIn(String(nudge?.reason));
		s.lines.pop();
		s.lines.push(cancelledNote());
		expect(await s.turnEnds(null, true)).toBeNull();

		const log = await s.engine.explain({ lines: 100 });
		expect(log.filter((line) => line.reason === "delivery-failed")).toEqual([]);
		expect((await lastDecision(s.engine))?.reason).toBe("user-aborted");
	});

	it("records nothing for PreCompress, which Gemini CLI fires before every model request", async () => {
		const s = session();
		await s.promptIn("Work.");
		await s.todos(["in_progress", "pending"]);
		const nudge = await s.turnEnds("Started.");
		await s.promptIn(String(nudge?.reason));
		const deps = { engine: s.engine, readTurn: async () => turnOf(jsonl(s.lines)) };
		const before = await s.engine.explain({ lines: 100 });
		const answer = await handleHook(hookInput("PreCompress", { trigger: "auto" }), deps);
		expect(answer.output).toBeNull();
		expect(await s.engine.explain({ lines: 100 })).toEqual(before);
	});

	it("tells a resumed session where its list stands, as SessionStart context, and nothing on startup or clear", async () => {
		const s = session();
		await s.promptIn("Work.");
		await s.todos(["completed", "in_progress", "pending"]);
		await s.turnEnds("Started.");
		const before = await s.engine.explain({ lines: 100 });
		const deps = { engine: s.engine, readTurn: async () => turnOf(jsonl(s.lines)) };
		const resumed = await handleHook(hookInput("SessionStart", { source: "resume" }), deps);
		expect(resumed.output).toEqual({
			hookSpecificOutput: {
				hookEventName: "SessionStart",
				additionalContext: expect.stringMatching(
					/was resumed[\s\S]*1 of 3 done[\s\S]*- Item B \(in progress\)\n- Item C/,
				),
			},
		});
		for (const source of ["startup", "clear"]) {
			expect((await handleHook(hookInput("SessionStart", { source }), deps)).output).toBeNull();
		}
		const after = (await s.engine.explain({ lines: 100 })).slice(before.length);
		expect(after.map((line) => `${line.kind}:${line.reason}`)).toEqual(["event:resume-context"]);
	});
});
