import { describe, expect, it } from "vitest";
import { parseHookInput } from "../../../src/adapters/claude-code/events.js";
import { stringField } from "../../../src/adapters/shared/hook-input.js";

const stop = { session_id: "s1", transcript_path: "/t.jsonl", cwd: "/w", hook_event_name: "Stop" };

function problem(text: string, event: string | null = "Stop"): string {
	const parsed = parseHookInput(text, event ?? undefined);
	if (parsed.ok) throw new Error("expected a problem");
	return parsed.problem;
}

describe("reading the hook's stdin", () => {
	it("reads the common fields and keeps the rest for the event", () => {
		const parsed = parseHookInput(JSON.stringify({ ...stop, last_assistant_message: "Done." }), "Stop");

		expect(parsed).toMatchObject({
			ok: true,
			input: { event: "Stop", sessionId: "s1", transcriptPath: "/t.jsonl", cwd: "/w", agentId: null },
		});
		if (parsed.ok) expect(stringField(parsed.input, "last_assistant_message")).toBe("Done.");
	});

	it("refuses empty input, text that is not JSON, and JSON that is not an object", () => {
		expect(problem("")).toMatch(/empty/);
		expect(problem("   \n")).toMatch(/empty/);
		expect(problem('{"session_id": "s1", ')).toMatch(/not JSON/);
		expect(problem("[1, 2]")).toMatch(/not a JSON object/);
		expect(problem("null")).toMatch(/not a JSON object/);
	});

	it("refuses input without a session id rather than guess whose state it is", () => {
		expect(problem(JSON.stringify({ ...stop, session_id: undefined }))).toMatch(/no session_id/);
		expect(problem(JSON.stringify({ ...stop, session_id: "" }))).toMatch(/no session_id/);
		expect(problem(JSON.stringify({ ...stop, session_id: 42 }))).toMatch(/no session_id/);
	});

	it("refuses an event it does not know, or none", () => {
		expect(problem(JSON.stringify(stop), "Notification")).toMatch(/unknown hook event "Notification"/);
		expect(problem(JSON.stringify(stop), null)).toMatch(/unknown hook event null/);
	});

	it("does nothing when the input names another event than the one registered", () => {
		expect(problem(JSON.stringify(stop), "SubagentStop")).toMatch(
			/registered for SubagentStop but the input says "Stop"/,
		);
	});

	it("accepts input without hook_event_name, and tolerates missing optional fields", () => {
		const parsed = parseHookInput(JSON.stringify({ session_id: "s1" }), "Stop");

		expect(parsed).toMatchObject({ ok: true, input: { transcriptPath: null, cwd: null, agentType: null } });
	});

	it("marks subagent events by their agent id", () => {
		const parsed = parseHookInput(
			JSON.stringify({ ...stop, hook_event_name: "PostToolUse", agent_id: "a1", agent_type: "general-purpose" }),
			"PostToolUse",
		);

		expect(parsed).toMatchObject({ ok: true, input: { agentId: "a1", agentType: "general-purpose" } });
	});
});
