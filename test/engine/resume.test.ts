/**
 * Resume context through the engine and the real file store: a session that
 * comes back to its unfinished work is told where it stands, once per coming
 * back, logged for `boulder why`, and nothing of its continuation state moves.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Engine, SessionRef } from "../../src/engine/engine.js";
import { setWorkStatus, startWork } from "../../src/engine/works-ops.js";
import { explain } from "../../src/present/why-text.js";
import type { Store } from "../../src/state/store.js";
import { clock, fileEngine, main, other, tempWorktree, turnThenIdle, writePlan } from "./helpers.js";

const PLAN = "# Ship\n\n- [x] Write the parser\n- [ ] Wire the CLI\n- [ ] Release\n";

async function started(text: string, options: { bound?: boolean; orchestrate?: boolean } = {}) {
	const worktree = await tempWorktree();
	await writePlan(worktree, "PLAN.md", text);
	const { engine, store } = fileEngine(worktree);
	const plans = { read: async (w: string, p: string) => readFile(path.join(w, p), "utf8") };
	await startWork(
		{ store, clock, plans },
		{
			planPath: "PLAN.md",
			cwd: worktree,
			...(options.bound === false ? {} : { session: main }),
			...(options.orchestrate ? { orchestrate: true } : {}),
		},
	);
	return { worktree, engine, store, plans };
}

async function scopeFile(engine: Engine, store: Store, ref: SessionRef): Promise<unknown> {
	const read = await store.readScope(engine.scopeOf(ref) ?? "");
	return read.kind === "ok" ? read.value : read.kind;
}

describe("resume context through the engine", () => {
	it("tells the bound session where its plan stands, logs it for `boulder why`, and changes no state", async () => {
		const { engine, store } = await started(PLAN);
		const first = await turnThenIdle(engine, main);
		expect(first.kind).toBe("inject");
		const before = await scopeFile(engine, store, main);

		const text = await engine.resumeContext(main, "resume");
		expect(text).toContain(
			'This session was resumed with work unfinished: 1 of 3 done, 2 open in the plan "Ship" (PLAN.md).',
		);
		expect(text).toContain("- Wire the CLI\n- Release\n");
		expect(text).toContain("Next: Wire the CLI");
		expect(await scopeFile(engine, store, main)).toEqual(before);

		const log = await store.readDecisions();
		const line = log.find((record) => record.reason === "resume-context");
		expect(line).toMatchObject({ kind: "event", session: main.sessionId, scope: engine.scopeOf(main) });
		const why = await engine.explain({ lines: 20 });
		expect(why.map((record) => record.reason)).toContain("resume-context");
		if (!line) throw new Error("not logged");
		const words = explain(line, clock.now());
		expect(words.headline).toBe("gave context");
		expect(words.text).toContain("no nudge, no new turn, nothing spent from the budgets");
	});

	it("spends no budget and counts no nudge, however often the session comes back", async () => {
		const { engine, store } = await started(PLAN);
		await turnThenIdle(engine, main);
		const before = await scopeFile(engine, store, main);
		expect(before).toMatchObject({ episode: { autoTurns: 1 } });
		await engine.resumeContext(main, "compact");
		await engine.resumeContext(main, "resume");
		expect(await scopeFile(engine, store, main)).toEqual(before);
		const log = await store.readDecisions();
		expect(log.filter((record) => record.kind === "inject")).toHaveLength(1);
		expect(log.filter((record) => record.reason === "resume-context")).toHaveLength(2);
	});

	it("never binds a session by coming back, nor tells another session about the bound one's plan", async () => {
		const unbound = await started(PLAN, { bound: false });
		expect(await unbound.engine.resumeContext(main, "resume")).toBeNull();
		const works = await unbound.store.readWorks();
		if (works.kind !== "ok") throw new Error("no works file");
		expect(Object.values(works.value.works)[0]?.sessions).toEqual([]);

		const bound = await started(PLAN);
		expect(await bound.engine.resumeContext(other, "resume")).toBeNull();
		expect(await bound.engine.resumeContext({ ...main, subagent: true }, "compact")).toBeNull();
		expect((await bound.store.readDecisions()).some((record) => record.reason === "resume-context")).toBe(false);
	});

	it("says nothing once the work is paused or the worktree stopped, nor when the plan is done", async () => {
		const paused = await started(PLAN);
		await setWorkStatus({ store: paused.store, clock, plans: paused.plans }, "paused");
		expect(await paused.engine.resumeContext(main, "resume")).toBeNull();

		const stopped = await started(PLAN);
		await stopped.engine.setWorktreeStopped(true, "`boulder stop`");
		expect(await stopped.engine.resumeContext(main, "resume")).toBeNull();

		const done = await started("# Ship\n\n- [x] Write the parser\n- [-] Release\n");
		expect(await done.engine.resumeContext(main, "resume")).toBeNull();

		const aborted = await started(PLAN);
		await aborted.engine.turnStarted(main, "user");
		await aborted.engine.sessionEvent(main, { type: "interrupt" });
		expect(await aborted.engine.resumeContext(main, "resume")).toBeNull();
	});

	it("tells a session with no plan about its own open list", async () => {
		const worktree = await tempWorktree();
		const { engine } = fileEngine(worktree);
		expect(await engine.resumeContext(main, "resume")).toBeNull();
		await engine.todosChanged(main, [
			{ content: "Fix the parser", status: "completed" },
			{ content: "Add tests", status: "in_progress" },
		]);
		const text = await engine.resumeContext(main, "resume");
		expect(text).toContain("1 of 2 done, 1 open in your todo list");
		expect(text).toContain("- Add tests (in progress)");
	});

	it("names the subagent session of an item in orchestrate mode", async () => {
		const { engine } = await started(PLAN, { orchestrate: true });
		await engine.subagentReturned(main, { session: "agent-1", description: "Wire the CLI" });
		const text = await engine.resumeContext(main, "resume");
		expect(text).toContain("- Wire the CLI — subagent session agent-1\n");
		expect(text).toContain("You are the orchestrator: resume the subagent session");
	});
});
