import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startWork } from "../../src/engine/works-ops.js";
import { clock, fileEngine, main, tempWorktree, writePlan } from "./helpers.js";

const PLAN = "# Ship\n\n- [ ] Wire the CLI\n  - [ ] its help names every option\n- [ ] Release\n";

async function started(text: string, options: { orchestrate?: boolean; config?: object } = {}) {
	const worktree = await tempWorktree();
	await writePlan(worktree, "PLAN.md", text);
	const { engine, store } = fileEngine(worktree, options.config ?? {});
	const plans = { read: async (w: string, p: string) => readFile(path.join(w, p), "utf8") };
	await startWork(
		{ store, clock, plans },
		{ planPath: "PLAN.md", cwd: worktree, session: main, ...(options.orchestrate ? { orchestrate: true } : {}) },
	);
	return { worktree, engine, store };
}

describe("orchestrate mode through the engine", () => {
	it("warns the bound orchestrator about a change outside its plan and logs it; the plan itself is free", async () => {
		const { worktree, engine, store } = await started(`---\nmode: orchestrate\n---\n${PLAN}`);
		const verdict = await engine.checkFileChange(main, { tool: "Edit", files: [path.join(worktree, "src/a.ts")] });
		expect(verdict.kind).toBe("warn");
		expect(await engine.checkFileChange(main, { tool: "Edit", files: [path.join(worktree, "PLAN.md")] })).toEqual({
			kind: "allow",
			reason: "exempt",
		});
		expect(await engine.checkFileChange({ ...main, subagent: true }, { tool: "Edit", files: ["src/a.ts"] })).toEqual({
			kind: "allow",
			reason: "subagent",
		});
		const log = await store.readDecisions();
		expect(log.filter((record) => record.reason === "orchestrator-edit-warned")).toHaveLength(1);
	});

	it("is what `--orchestrate` asks for too, and refuses when configured to deny", async () => {
		const { engine } = await started(PLAN, { orchestrate: true, config: { orchestrate: { edits: "deny" } } });
		expect((await engine.checkFileChange(main, { tool: "Write", files: ["src/a.ts"] })).kind).toBe("deny");
	});

	it("restricts nothing in a work that is not orchestrated", async () => {
		const { engine } = await started(PLAN);
		expect(await engine.checkFileChange(main, { tool: "Write", files: ["src/a.ts"] })).toEqual({
			kind: "allow",
			reason: "not-orchestrating",
		});
		expect(await engine.subagentReturned(main, { session: "agent-1", description: "Wire the CLI" })).toBeNull();
	});

	it("remembers the subagent per item, returns the note, and names the subagent in the next nudge", async () => {
		const { engine, store } = await started(PLAN, { orchestrate: true });
		const note = await engine.subagentReturned(main, { session: "agent-1", description: "Wire the CLI" });
		expect(note).toContain('"Wire the CLI"');
		expect(note).toContain("- [ ] its help names every option");
		const works = await store.readWorks();
		if (works.kind !== "ok") throw new Error("no works file");
		expect(Object.values(works.value.works)[0]?.subagentSessions).toEqual({ "Wire the CLI": "agent-1" });

		await engine.turnStarted(main, "user");
		clock.t += 1000;
		await engine.turnEnded(main, { outcome: "end" });
		const decision = await engine.onIdle(main, {});
		expect(decision.kind).toBe("inject");
		expect(decision.text).toContain("delegate these items to subagents");
		expect(decision.text).toContain('"Wire the CLI" was already worked on by subagent session agent-1');
		const status = await engine.worktreeStatus();
		expect(status.works[0]).toMatchObject({
			orchestrate: true,
			subagents: [{ item: "Wire the CLI", session: "agent-1" }],
		});
	});
});
