/**
 * A plan is handed from the session that rolled it to the next one only by an
 * explicit act (`boulder start PLAN` on the active work, `boulder go`, the
 * dashboard, `boulder resume`): the next other session to go idle in the
 * worktree joins it, appended. A session that merely shares the worktree is
 * never hijacked, and `why` tells the user the command that hands it over.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionRef } from "../../src/engine/engine.js";
import { setStopped, setWorkStatus, startWork } from "../../src/engine/works-ops.js";
import { clock, fileEngine, main, other, tempWorktree, turnThenIdle, writePlan } from "./helpers.js";

const plans = { read: async (w: string, p: string) => readFile(path.join(w, p), "utf8") };
const third: SessionRef = { harness: "test", sessionId: "ses_third" };
const PLAN = "# Ship it\n\n- [x] write\n- [ ] test\n";

async function rolledByMain() {
	const worktree = await tempWorktree();
	await writePlan(worktree, "plan.md", PLAN);
	const { engine, store } = fileEngine(worktree);
	const deps = { store, clock, plans };
	await startWork(deps, { planPath: "plan.md", cwd: worktree });
	await engine.turnStarted(main, "user");
	expect((await turnThenIdle(engine, main)).kind).toBe("inject");
	return { worktree, engine, store, deps };
}

async function idleIn(worktree: string, ref: SessionRef) {
	const { engine } = fileEngine(worktree);
	await engine.turnStarted(ref, "user");
	return turnThenIdle(engine, ref);
}

async function sessionsOf(deps: Awaited<ReturnType<typeof rolledByMain>>["deps"]) {
	const works = await deps.store.readWorks();
	if (works.kind !== "ok") throw new Error("no works file");
	return Object.values(works.value.works)[0];
}

describe("handing a plan to the next session", () => {
	it("refuses a session that shares the worktree, and names the command that hands the plan over", async () => {
		const { worktree } = await rolledByMain();
		const refused = await idleIn(worktree, other);
		expect(refused.reason).toBe("not-eligible");
		expect(refused.detail).toContain("belongs to test session ses_main");
		expect(refused.detail).toContain(
			"`boulder start plan.md` hands it to the next session that goes idle in this worktree",
		);
	});

	it("`boulder start` on the active work binds the next other session to go idle, appended, and only that one", async () => {
		const { worktree, deps } = await rolledByMain();
		const again = await startWork(deps, { planPath: "plan.md", cwd: worktree });
		expect(again.outcome).toBe("already-active");
		expect(again.handedOver).toBe(true);
		const joined = await idleIn(worktree, other);
		expect(joined.kind).toBe("inject");
		expect(joined.work?.name).toBe("Ship it");
		const work = await sessionsOf(deps);
		expect(work?.sessions.map((s) => [s.sessionId, s.how])).toEqual([
			["ses_main", "appended"],
			["ses_other", "appended"],
		]);
		expect(work?.handover ?? null).toBeNull();
		// The handover is spent: a third session is not hijacked.
		expect((await idleIn(worktree, third)).reason).toBe("not-eligible");
	});

	it("the bound session going idle does not spend the handover", async () => {
		const { worktree, engine, deps } = await rolledByMain();
		await startWork(deps, { planPath: "plan.md", cwd: worktree });
		expect((await turnThenIdle(engine, main)).kind).toBe("inject");
		expect((await idleIn(worktree, other)).kind).toBe("inject");
	});

	it("a session that resumes under the same id (Claude Code --resume) is still bound", async () => {
		const { worktree } = await rolledByMain();
		expect((await idleIn(worktree, main)).kind).toBe("inject");
	});

	it("`boulder go` hands the active work over, whether or not continuation was stopped", async () => {
		const { worktree, deps } = await rolledByMain();
		const go = await setStopped(deps, false, "`boulder go`");
		expect(go.changed).toBe(false);
		expect(go.handedOver?.sessions.map((s) => s.sessionId)).toEqual(["ses_main"]);
		expect((await idleIn(worktree, other)).kind).toBe("inject");
	});

	it("resuming a paused work hands it over", async () => {
		const { worktree, deps } = await rolledByMain();
		await setWorkStatus(deps, "paused");
		await setWorkStatus(deps, "active");
		expect((await idleIn(worktree, other)).kind).toBe("inject");
	});

	it("a work started by a session itself is not handed over", async () => {
		const { worktree, deps } = await rolledByMain();
		const started = await startWork(deps, { planPath: "plan.md", cwd: worktree, session: main });
		expect(started.handedOver).toBe(false);
		expect((await idleIn(worktree, other)).reason).toBe("not-eligible");
	});
});
