/**
 * `boulder status` shows the sessions that roll their own todo list (the
 * default in every harness), not only works: with two such sessions being
 * nudged it never says "no works" and nothing else.
 */
import { describe, expect, it } from "vitest";
import type { Engine } from "../../src/engine/engine.js";
import type { StatusReport } from "../../src/present/render/status.js";
import { PLAN, sandbox } from "./helpers.js";

async function rollList(
	engine: Engine,
	sessionId: string,
	todos: { content: string; status: "pending" | "completed" | "in_progress" }[],
) {
	const ref = { harness: "claude-code", sessionId };
	await engine.turnStarted(ref, "user");
	await engine.todosChanged(ref, todos);
	await engine.turnEnded(ref, { outcome: "end" });
	return engine.onIdle(ref);
}

describe("boulder status with sessions rolling their own list", () => {
	it("shows each session, its counts, next item and last decision, in text, --json and --all", async () => {
		const box = await sandbox();
		const engine = await box.engine();
		expect(
			(
				await rollList(engine, "sess-aaaa-1111", [
					{ content: "read the code", status: "completed" },
					{ content: "fix the bug", status: "in_progress" },
					{ content: "write the test", status: "pending" },
				])
			).kind,
		).toBe("inject");
		box.clock.advance(1000);
		expect((await rollList(engine, "sess-bbbb-2222", [{ content: "tidy the docs", status: "pending" }])).kind).toBe(
			"inject",
		);

		const text = (await box.run(["status"])).stdout;
		expect(text).not.toContain("no works");
		expect(text).toContain("claude-code:sess-aaa…  its own list  2 open, 1/3 done");
		expect(text).toContain("next      fix the bug");
		expect(text).toContain("claude-code:sess-bbb…  its own list  1 open, 0/1 done");
		expect(text).toContain("next      tidy the docs");
		expect(text).toMatch(/last {6}.*continued/);

		const json = JSON.parse((await box.run(["status", "--json"])).stdout) as StatusReport;
		const sessions = json.worktrees[0]?.sessions ?? [];
		expect(sessions.map((s) => s.sessionId)).toEqual(["sess-bbbb-2222", "sess-aaaa-1111"]);
		expect(sessions[1]).toMatchObject({
			harness: "claude-code",
			counts: { total: 3, open: 2, done: 1, blocked: 0, cancelled: 0 },
			next: "fix the bug",
			lastDecision: expect.objectContaining({ kind: "inject", reason: "continue" }),
		});
		expect(sessions[1]?.items).toHaveLength(3);

		const all = JSON.parse((await box.run(["status", "--all", "--json"])).stdout) as StatusReport;
		expect(all.worktrees[0]?.sessions).toHaveLength(2);
	});

	it("shows a session bound to a work under the work, not again as a list of its own", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		const engine = await box.engine();
		await rollList(engine, "bound-1", [{ content: "x", status: "pending" }]);
		const json = JSON.parse((await box.run(["status", "--json"])).stdout) as StatusReport;
		expect(json.worktrees[0]?.works[0]?.sessions.map((s) => s.sessionId)).toEqual(["bound-1"]);
		expect(json.worktrees[0]?.sessions).toEqual([]);
	});
});
