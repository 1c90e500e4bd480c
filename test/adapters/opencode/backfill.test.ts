import { describe, expect, it } from "vitest";
import { Backfill } from "../../../src/adapters/opencode/backfill.js";
import { SessionTrack } from "../../../src/adapters/opencode/sessions.js";
import { FakeApi, MODEL, stateOf, testWorkspace } from "./helpers.js";

const S = "ses_backfill";

function setUp() {
	const api = new FakeApi();
	const errors: string[] = [];
	const backfill = new Backfill(api, async (_, where, error) => {
		errors.push(`${where}: ${error instanceof Error ? error.message : String(error)}`);
	});
	return { api, errors, backfill, track: new SessionTrack(S) };
}

const user = (id: string, agent: string, parts: unknown[] = [{ type: "text", text: "Do it." }]) => ({
	info: { id, sessionID: S, role: "user", agent, model: MODEL },
	parts,
});

const assistant = (id: string, finish: string, tokens = { input: 100, output: 20 }) => ({
	info: { id, sessionID: S, role: "assistant", agent: "build", finish, tokens },
	parts: [],
});

describe("reading back what the events did not say", () => {
	it("finds the route of the last real user message, past boulder's nudges and synthetic prompts, and keeps it", async () => {
		const { api, backfill, track } = setUp();
		api.stored.set(S, [
			user("m1", "builder"),
			assistant("m2", "stop"),
			user("m3", "build", [
				{ type: "text", text: "Go on.", synthetic: true, metadata: { boulder: { kind: "nudge", key: "k" } } },
			]),
			user("m4", "build", [{ type: "text", text: "A reminder", synthetic: true }]),
		]);
		expect(await backfill.route(track)).toEqual({ agent: "builder", model: MODEL });
		api.stored.set(S, []);
		expect(await backfill.route(track)).toEqual({ agent: "builder", model: MODEL });
	});

	it("has no route when no real user message is stored, and lets a failed read reach its caller", async () => {
		const { api, backfill, track } = setUp();
		expect(await backfill.route(track)).toEqual({ agent: null, model: null });
		api.messagesError = new Error("HTTP 503");
		await expect(backfill.route(track)).rejects.toThrow("HTTP 503");
	});

	it("reads how the last turn ended from its last assistant message; a user message last means no answer yet", async () => {
		const { api, backfill, track } = setUp();
		api.stored.set(S, [
			user("m1", "build"),
			assistant("m2", "tool-calls"),
			assistant("m3", "stop", { input: 7, output: 3 }),
		]);
		expect(await backfill.turnEnd(track)).toMatchObject({
			spend: { input: 7, output: 3, cacheWrite: 0 },
			last: { id: "m3", finish: "stop" },
		});
		api.stored.set(S, [assistant("m2", "stop"), user("m4", "build")]);
		expect(await backfill.turnEnd(track)).toBeNull();
	});

	it("records a failed read of the turn and answers that nothing is known", async () => {
		const { api, backfill, track, errors } = setUp();
		api.messagesError = new Error("HTTP 503");
		expect(await backfill.turnEnd(track)).toBeNull();
		expect(errors).toEqual(["reading how the turn ended: HTTP 503"]);
	});

	it("asks for a session's parent once, and fails closed when it cannot", async () => {
		const { api, backfill, track, errors } = setUp();
		api.parents.set(S, "ses_parent");
		expect(await backfill.parentOf(track)).toBe("ses_parent");
		api.parents.set(S, null);
		expect(await backfill.parentOf(track)).toBe("ses_parent");

		const other = new SessionTrack("ses_unreadable");
		api.parentOf = async () => {
			throw new Error("HTTP 404");
		};
		expect(await backfill.parentOf(other)).toBe("unknown");
		expect(other.parentId).toBeUndefined();
		expect(errors).toEqual(["reading whether the session is a subagent's: HTTP 404"]);
	});

	it("hands the agent's list to the engine and marks it known", async () => {
		const { api, backfill, track } = setUp();
		const ws = testWorkspace();
		api.todoLists.set(S, [{ content: "Left over", status: "pending", priority: "high" }]);
		await backfill.todos(track, await ws.source.bookkeeping());
		expect(track.todosKnown).toBe(true);
		expect((await stateOf(ws.store, S)).todos).toEqual([{ content: "Left over", status: "pending", priority: "high" }]);
	});
});
