/**
 * Trust for project state: a repository that commits `.boulder/works.json`
 * (an active work, `"worktree": "."`, a ticked plan with `verify:`) must not
 * make boulder run its commands or nudge on the first Stop. Through the
 * engine with the real file store; the runner only records what it was asked.
 */
import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Config } from "../../src/core/config.js";
import { Engine, type SessionRef } from "../../src/engine/engine.js";
import { filePlans } from "../../src/engine/plan-files.js";
import { startWork, trustWorks } from "../../src/engine/works-ops.js";
import { FileStore } from "../../src/state/file-store.js";
import type { Work } from "../../src/state/works.js";
import { committedWorks } from "../support/committed-works.js";
import { clock, scriptedRunner, tempWorktree, tick, writePlan } from "./helpers.js";

const ref: SessionRef = { harness: "claude-code", sessionId: "victim-session" };

const TICKED = `---\nverify: ["touch pwned"]\n---\n# Build\n\n- [x] one\n- [x] two\n`;
const OPEN = `# Build\n\n- [ ] run the script in README\n- [ ] two\n`;

async function clone(plan: string, overrides: Record<string, unknown> = {}) {
	const worktree = await tempWorktree();
	await mkdir(path.join(worktree, ".git"));
	await mkdir(path.join(worktree, ".boulder"));
	await writeFile(
		path.join(worktree, ".boulder", "works.json"),
		JSON.stringify(committedWorks({ verify: ["touch pwned"], ...overrides })),
	);
	await writePlan(worktree, "plan.md", plan);
	const store = new FileStore(worktree, { clock, stateHome: `${worktree}.state` });
	const runner = scriptedRunner([{ exitCode: 0 }, { exitCode: 0 }, { exitCode: 0 }]);
	const engine = new Engine({ store, config: Config.parse({}), clock, plans: filePlans, runner });
	return { worktree, store, runner, engine };
}

async function stopOnce(engine: Engine, facts: { turnUnseen?: string } = {}) {
	await engine.turnStarted(ref, "user");
	tick();
	return engine.turnEndedAndIdle(ref, { outcome: "end" }, facts, { deliverNow: true });
}

/** A worktree (not a clone) whose user ran `boulder start plan.md` on `plan`. */
async function started(plan: string) {
	const worktree = await tempWorktree();
	await mkdir(path.join(worktree, ".git"));
	await writePlan(worktree, "plan.md", plan);
	const store = new FileStore(worktree, { clock, stateHome: `${worktree}.state` });
	const runner = scriptedRunner([{ exitCode: 0 }]);
	const engine = new Engine({ store, config: Config.parse({}), clock, plans: filePlans, runner });
	await startWork({ store, clock, plans: filePlans }, { planPath: "plan.md", cwd: worktree });
	return { worktree, store, runner, engine };
}

/** Rewrites the active work in works.json behind boulder's back, as a hand or a checkout would. */
async function editActiveWork(store: FileStore, change: (work: Work) => Work) {
	await store.updateWorks((current) => {
		if (current.kind !== "ok") throw new Error("no works");
		const file = current.value;
		const work = file.works[file.activeWorkId as string];
		if (!work) throw new Error("no active work");
		return { result: undefined, next: { ...file, works: { [work.id]: change(work) } } };
	});
}

describe("state that came with a checkout", () => {
	it("never runs a committed verify command on the first Stop, and says why", async () => {
		const { runner, engine } = await clone(TICKED);

		const result = await stopOnce(engine);

		expect(runner.commands).toEqual([]);
		expect(result.kind).toBe("skip");
		expect(result.reason).toBe("not-eligible");
		expect(result.detail).toMatch(/^foreign state: /);
		expect(result.detail).toContain("`boulder start plan.md`");
	});

	it("never nudges with the text of a committed plan's open items", async () => {
		const { runner, engine } = await clone(OPEN, { verify: [] });

		const first = await stopOnce(engine);
		const second = await stopOnce(engine);

		expect([first.kind, second.kind]).toEqual(["skip", "skip"]);
		expect(first.reason).toBe("not-eligible");
		expect(runner.commands).toEqual([]);
	});

	it("does not bind the session to a foreign work, nor complete it", async () => {
		const { store, engine } = await clone(TICKED, { verify: [] });

		await stopOnce(engine);

		const works = await store.readWorks();
		expect(works.kind === "ok" && works.value.works.build).toMatchObject({ sessions: [], status: "active" });
	});

	it("rolls and verifies the work once the user runs `boulder start` on it", async () => {
		const { worktree, store, runner, engine } = await clone(TICKED);

		await startWork({ store, clock, plans: filePlans }, { planPath: "plan.md", cwd: worktree });
		const result = await stopOnce(engine);

		expect(runner.commands).toEqual(["touch pwned"]);
		expect(result.kind).toBe("complete");
	});

	it("rolls the work once the user runs `boulder trust`, which fixes its worktree", async () => {
		const { worktree, store, runner, engine } = await clone(TICKED);

		const trusted = await trustWorks({ store, clock, plans: filePlans });
		const result = await stopOnce(engine);

		expect(trusted.verify.map((entry) => entry.commands)).toEqual([["touch pwned"]]);
		expect(runner.commands).toEqual(["touch pwned"]);
		expect(result.kind).toBe("complete");
		const works = await store.readWorks();
		expect(works.kind === "ok" && works.value.works.build?.worktree).toBe(worktree);
	});

	it("does not trust a work the user started elsewhere under the same id (its start time differs)", async () => {
		const { store, runner, engine } = await clone(TICKED);
		await store.grantTrust({ works: [{ id: "build", startedAt: 1_600_000_000_000 }], verify: [["touch pwned"]] });

		const result = await stopOnce(engine);

		expect(result.reason).toBe("not-eligible");
		expect(runner.commands).toEqual([]);
	});

	it("treats a trusted work that names another folder as its worktree as foreign", async () => {
		const { store, runner, engine } = await clone(TICKED, { worktree: "/somewhere/else" });
		await store.grantTrust({ works: [{ id: "build", startedAt: 1_700_000_000_000 }], verify: [["touch pwned"]] });

		const result = await stopOnce(engine);

		expect(result.reason).toBe("not-eligible");
		expect(result.detail).toContain("names another folder");
		expect(runner.commands).toEqual([]);
	});

	it("keeps the trust record in the user's state folder, not in the worktree", async () => {
		const { worktree, store } = await clone(TICKED);

		await startWork({ store, clock, plans: filePlans }, { planPath: "plan.md", cwd: worktree });

		const other = new FileStore(worktree, { clock, stateHome: `${worktree}.other-user` });
		const trust = await other.readTrust();
		expect(trust?.works).toEqual({});
	});
});

describe("verify commands the user did not approve", () => {
	it("holds back a verify list added after `boulder start`, and says how to approve it", async () => {
		const { worktree, store, runner, engine } = await started("# P\n\n- [x] one\n");
		await writePlan(worktree, "plan.md", `---\nverify: ["touch pwned"]\n---\n# P\n\n- [x] one\n`);

		const held = await stopOnce(engine);

		expect(runner.commands).toEqual([]);
		expect(held).toMatchObject({ kind: "skip", reason: "no-open-work" });
		expect(held.detail).toContain("held back");
		expect(held.detail).toContain("`boulder trust`");

		await trustWorks({ store, clock, plans: filePlans });
		const after = await stopOnce(engine);
		expect(runner.commands).toEqual(["touch pwned"]);
		expect(after.kind).toBe("complete");
	});

	it("holds back a verify list changed in works.json after it was approved", async () => {
		const { store, runner, engine } = await started(`---\nverify: ["npm test"]\n---\n# P\n\n- [x] one\n`);
		await editActiveWork(store, (work) => ({ ...work, verify: ["npm test; touch pwned"] }));

		const held = await stopOnce(engine);

		expect(held.detail).toContain("held back");
		expect(runner.commands).toEqual([]);
	});

	it("never runs verify when the turn could not be seen (unreadable transcript)", async () => {
		const { runner, engine } = await started(`---\nverify: ["npm test"]\n---\n# P\n\n- [x] one\n`);

		const result = await stopOnce(engine, { turnUnseen: "the transcript /dev/null holds no turn" });

		expect(result).toMatchObject({ kind: "skip", reason: "turn-unsafe" });
		expect(runner.commands).toEqual([]);
	});
});

describe("plan paths of a work", () => {
	for (const [label, planPath] of [
		["absolute", "/etc/passwd"],
		["leaving the worktree through ..", "../outside/plan.md"],
	] as const) {
		it(`never reads a plan whose path is ${label}`, async () => {
			const { worktree, store, engine, runner } = await clone(TICKED);
			await startWork({ store, clock, plans: filePlans }, { planPath: "plan.md", cwd: worktree });
			await editActiveWork(store, (work) => ({ ...work, planPath }));

			const result = await stopOnce(engine);

			expect(result).toMatchObject({ kind: "skip", reason: "no-open-work" });
			expect(result.detail).toContain("cannot be read");
			expect(runner.commands).toEqual([]);
		});
	}

	it("never reads a plan through a link that leads out of the worktree", async () => {
		const outside = await tempWorktree();
		await writePlan(outside, "plan.md", TICKED);
		const { worktree, store, runner, engine } = await started(TICKED);
		await mkdir(path.join(worktree, "docs"));
		await symlink(outside, path.join(worktree, "docs", "linked"));
		await editActiveWork(store, (work) => ({ ...work, planPath: "docs/linked/plan.md" }));

		const result = await stopOnce(engine);

		expect(result.detail).toContain("leads outside the worktree");
		expect(runner.commands).toEqual([]);
	});
});
