import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Todo } from "../../src/core/todos.js";
import { setStopped, setWorkStatus, startWork } from "../../src/engine/works-ops.js";
import {
	clock,
	fileEngine,
	main,
	memoryEngine,
	other,
	scriptedRunner,
	tempWorktree,
	tick,
	turnThenIdle,
	writePlan,
} from "./helpers.js";

const list = (spec: string): Todo[] =>
	[...spec].map((char, index) => ({ content: `item ${index + 1}`, status: char === "x" ? "completed" : "pending" }));

describe("engine", () => {
	it("persists the inject with its key before the adapter delivers it", async () => {
		const { engine, store } = memoryEngine();
		await engine.turnStarted(main, "user");
		await engine.todosChanged(main, list("x.."));
		const result = await turnThenIdle(engine, main);
		expect(result.kind).toBe("inject");
		const saved = await store.readScope(engine.scopeOf(main) ?? "");
		expect(saved.kind === "ok" && saved.value.lastDecision).toMatchObject({ key: result.key, delivery: "pending" });
	});

	it("answers duplicate to a second idle for the same turn", async () => {
		const { engine } = memoryEngine();
		await engine.turnStarted(main, "user");
		await engine.todosChanged(main, list("x.."));
		const first = await turnThenIdle(engine, main);
		const second = await engine.onIdle(main);
		expect([first.kind, second.reason]).toEqual(["inject", "duplicate"]);
	});

	it("logs every decision, skips included, with figures", async () => {
		const { engine, store } = memoryEngine();
		await engine.turnStarted(main, "user");
		await engine.todosChanged(main, list("x.."));
		await turnThenIdle(engine, main);
		await engine.onIdle(main);
		const log = await store.readDecisions();
		const decisions = log.filter((record) => record.kind !== "event");
		expect(decisions.map((record) => record.reason)).toEqual(["continue", "duplicate"]);
		expect(decisions[0]?.figures).toMatchObject({ open: 2, done: 1, stagnation: 0 });
		expect(decisions[0]?.session).toBe("ses_main");
	});

	it("lets subagents stop without touching any state", async () => {
		const { engine, store } = memoryEngine();
		const result = await engine.onIdle({ ...main, subagent: true });
		expect(result.reason).toBe("not-eligible");
		expect((await store.readDecisions()).at(-1)?.scope).toBeNull();
	});

	it("fails closed on an unreadable scope file, keeps it aside, and resumes after the user writes", async () => {
		const { engine, store } = memoryEngine();
		await engine.todosChanged(main, list("x.."));
		store.spoil({ scope: engine.scopeOf(main) ?? "" }, "corrupt");
		await engine.turnEnded(main, { outcome: "end" });
		const blocked = await engine.onIdle(main);
		expect(blocked.reason).toBe("disabled");
		expect(blocked.detail).toContain("unreadable");
		expect((await store.problems()).length).toBe(1);
		await engine.turnStarted(main, "user");
		await engine.todosChanged(main, list("x.."));
		expect((await turnThenIdle(engine, main)).kind).toBe("inject");
	});

	it("honours the user's stop for the session until it is turned on again", async () => {
		const { engine } = memoryEngine();
		await engine.turnStarted(main, "user");
		await engine.todosChanged(main, list("x.."));
		await engine.stopSession(main, "/boulder stop");
		expect((await turnThenIdle(engine, main)).reason).toBe("disabled");
		await engine.turnStarted(main, "user");
		expect((await turnThenIdle(engine, main)).reason).toBe("disabled");
		await engine.goSession(main, "/boulder go");
		expect((await turnThenIdle(engine, main)).kind).toBe("inject");
	});

	it("counts the spend of a continued turn that died on an API error against the episode", async () => {
		const { engine, store } = memoryEngine();
		await engine.turnStarted(main, "user");
		await engine.todosChanged(main, list("x.."));
		const nudge = await turnThenIdle(engine, main);
		await engine.delivered(main, nudge.key ?? "");
		await engine.sessionEvent(main, {
			type: "api-error",
			message: "overloaded",
			spend: { input: 900, output: 100, cacheWrite: 0 },
		});
		const saved = await store.readScope(engine.scopeOf(main) ?? "");
		expect(saved.kind === "ok" && saved.value.episode?.tokens).toBe(1000);
		expect(saved.kind === "ok" && saved.value.turn?.outcome).toBe("error");
	});

	it("backs off after a failed delivery and says until when", async () => {
		const { engine } = memoryEngine();
		await engine.turnStarted(main, "user");
		await engine.todosChanged(main, list("x.."));
		const nudge = await turnThenIdle(engine, main);
		await engine.deliveryFailed(main, nudge.key ?? "", "prompt_async returned 500");
		const again = await engine.onIdle(main);
		expect(again.reason).toBe("backoff");
		expect(again.retryAt).toBe(clock.t + 5000);
		tick(5000);
		expect((await engine.onIdle(main)).kind).toBe("inject");
	});
});

/** A worktree whose active work is `text`, started as `boulder start plan.md` would. */
async function startedPlan(text: string) {
	const worktree = await tempWorktree();
	await writePlan(worktree, "plan.md", text);
	const { engine, store } = fileEngine(worktree);
	await startWork(
		{ store, clock, plans: { read: async (w, p) => readFile(path.join(w, p), "utf8") } },
		{ planPath: "plan.md", cwd: worktree },
	);
	return { worktree, engine, store };
}

describe("engine with a plan (works)", () => {
	const plan = '---\nverify: node -e "process.exit(0)"\n---\n# Ship it\n\n- [x] write\n- [ ] test\n  - [ ] criterion\n';

	it("binds the first session to go idle after `start`, and never hijacks another session", async () => {
		const { worktree, engine, store } = await startedPlan(plan);
		await engine.turnStarted(main, "user");
		const first = await turnThenIdle(engine, main);
		expect(first.kind).toBe("inject");
		expect(first.work?.name).toBe("Ship it");
		expect(first.text).toContain('the plan "Ship it"');
		// The second session comes through its own engine over the same files, as a second process would.
		const { engine: secondEngine } = fileEngine(worktree);
		await secondEngine.turnStarted(other, "user");
		const second = await turnThenIdle(secondEngine, other);
		expect(second.reason).toBe("not-eligible");
		expect(second.detail).toContain('"Ship it" belongs to test session ses_main');
		const works = await store.readWorks();
		expect(works.kind === "ok" && Object.values(works.value.works)[0]?.sessions).toEqual([
			expect.objectContaining({ sessionId: "ses_main", how: "appended" }),
		]);
		const logged = await store.readDecisions({ session: "ses_other" });
		expect(logged.at(-1)).toMatchObject({ kind: "skip", reason: "not-eligible" });
	});

	it("lets a second session roll a list of its own, never the plan another session owns", async () => {
		const { worktree, engine } = await startedPlan(plan);
		await engine.turnStarted(main, "user");
		expect((await turnThenIdle(engine, main)).work?.name).toBe("Ship it");
		const { engine: secondEngine } = fileEngine(worktree);
		await secondEngine.turnStarted(other, "user");
		await secondEngine.todosChanged(other, list("x."));
		const second = await turnThenIdle(secondEngine, other);
		expect(second.kind).toBe("inject");
		expect(second.work).toBeNull();
		expect(second.text).toContain("item 2");
		expect(second.text).not.toContain("Ship it");
	});

	it("runs the verify commands when every item is done, sends a failure back, then completes once", async () => {
		const worktree = await tempWorktree();
		const file = await writePlan(worktree, "plan.md", plan.replace("- [ ] test", "- [x] test"));
		const runner = scriptedRunner([{ exitCode: 1, output: "Error: expected 2, got 1" }, { exitCode: 0 }]);
		const { engine, store } = fileEngine(worktree, {}, runner);
		const deps = { store, clock, plans: { read: async (w: string, p: string) => readFile(path.join(w, p), "utf8") } };
		await startWork(deps, { planPath: file, cwd: worktree, session: main });
		await engine.turnStarted(main, "user");
		const failed = await turnThenIdle(engine, main);
		expect(failed.reason).toBe("verify-failed");
		expect(failed.text).toContain("expected 2, got 1");
		await engine.delivered(main, failed.key ?? "");
		const done = await turnThenIdle(engine, main);
		expect(done.kind).toBe("complete");
		expect(runner.commands).toHaveLength(2);
		const works = await store.readWorks();
		const work = works.kind === "ok" ? Object.values(works.value.works)[0] : undefined;
		expect(work?.status).toBe("completed");
		expect(work?.lastVerification?.passed).toBe(true);
		expect(work?.elapsedMs).toBeGreaterThan(0);
		expect((await turnThenIdle(engine, main)).kind).toBe("skip");
	});

	it("does not nudge while the worktree is stopped or the work paused", async () => {
		const worktree = await tempWorktree();
		await writePlan(worktree, "plan.md", plan);
		const { engine, store } = fileEngine(worktree);
		const deps = { store, clock, plans: { read: async (w: string, p: string) => readFile(path.join(w, p), "utf8") } };
		await startWork(deps, { planPath: "plan.md", cwd: worktree, session: main });
		await setStopped(deps, true, "boulder stop");
		await engine.turnStarted(main, "user");
		expect((await turnThenIdle(engine, main)).reason).toBe("disabled");
		await setStopped(deps, false, "boulder go");
		await setWorkStatus(deps, "paused");
		await engine.turnStarted(main, "user");
		const paused = await turnThenIdle(engine, main);
		expect(paused.reason).toBe("disabled");
		expect(paused.detail).toContain("paused");
		await setWorkStatus(deps, "active");
		await engine.turnStarted(main, "user");
		expect((await turnThenIdle(engine, main)).kind).toBe("inject");
	});

	it("neither continues, verifies nor completes a plan with errors, and says where the first one is", async () => {
		const worktree = await tempWorktree();
		const file = await writePlan(worktree, "plan.md", plan);
		const runner = scriptedRunner([{ exitCode: 0 }]);
		const { engine, store } = fileEngine(worktree, {}, runner);
		const deps = { store, clock, plans: { read: async (w: string, p: string) => readFile(path.join(w, p), "utf8") } };
		await startWork(deps, { planPath: file, cwd: worktree, session: main });
		const unclosed = ["- [x] write", "```ts", "const x = 1;", "- [ ] test", "- [ ] ship"].join("\n");
		await writePlan(worktree, "plan.md", `# Ship it\n\n- [ ] review\n${unclosed}\n`);
		await engine.turnStarted(main, "user");
		const open = await turnThenIdle(engine, main);
		expect(open).toMatchObject({ kind: "skip", reason: "no-open-work" });
		expect(open.detail).toContain("plan.md:7: this checkbox is inside a code fence opened on line 5");
		expect(open.detail).toContain("(and 1 more;");

		// Every item the fence left visible is done: read naively, the work would verify and complete.
		await writePlan(worktree, "plan.md", `# Ship it\n\n- [x] review\n${unclosed}\n`);
		await engine.turnStarted(main, "user");
		const done = await turnThenIdle(engine, main);
		expect(done).toMatchObject({ kind: "skip", reason: "no-open-work" });
		expect(done.detail).toContain("has errors");
		expect(runner.commands).toEqual([]);
		const works = await store.readWorks();
		const work = works.kind === "ok" ? Object.values(works.value.works)[0] : undefined;
		expect(work?.status).toBe("active");
	});

	it("says the plan file is missing instead of guessing", async () => {
		const worktree = await tempWorktree();
		const file = await writePlan(worktree, "plan.md", plan);
		const { engine, store } = fileEngine(worktree);
		const deps = { store, clock, plans: { read: async (w: string, p: string) => readFile(path.join(w, p), "utf8") } };
		await startWork(deps, { planPath: file, cwd: worktree, session: main });
		const { rm } = await import("node:fs/promises");
		await rm(file);
		await engine.turnStarted(main, "user");
		const result = await turnThenIdle(engine, main);
		expect(result.reason).toBe("no-open-work");
		expect(result.detail).toContain("plan.md is missing");
	});
});
