/**
 * `boulder status` keeps each plan's summary in the worktree's plan-summary
 * cache and parses only the plans that changed: a changed plan must never
 * show the counts it had before.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PLAN_SUMMARY_FORMAT, type PlanSummary } from "../../src/core/plan-summary.js";
import type { PlanSource } from "../../src/engine/engine-types.js";
import { planFiles } from "../../src/engine/plan-files.js";
import { readWorktreeStatus } from "../../src/engine/status.js";
import { startWork } from "../../src/engine/works-ops.js";
import { FileStore } from "../../src/state/file-store.js";
import { clock, tempWorktree, writePlan } from "./helpers.js";

const PLAN = "# Ship it\n\n- [x] write\n- [ ] test\n- [ ] ship\n";
/** The same length as `PLAN`, one more item done. */
const PLAN_AHEAD = "# Ship it\n\n- [x] write\n- [x] test\n- [ ] ship\n";

/** File plans whose stamps are trusted at once (the settle time is for clocks, and a test has no time to wait), counting reads. */
function countingPlans(settleMs = 0): PlanSource & { reads: number } {
	const files = planFiles({ settleMs });
	const counting = {
		reads: 0,
		read: (worktree: string, planPath: string) => {
			counting.reads++;
			return files.read(worktree, planPath);
		},
		stamp: files.stamp,
	};
	return counting;
}

async function startedWorktree(text = PLAN) {
	const worktree = await tempWorktree();
	await writePlan(worktree, "plan.md", text);
	const store = new FileStore(worktree, { clock, stateHome: `${worktree}.state` });
	await startWork({ store, clock, plans: planFiles() }, { planPath: "plan.md", cwd: worktree });
	return { worktree, store, cacheFile: path.join(worktree, ".boulder", "plan-summaries.json") };
}

async function progressOf(store: FileStore, plans: PlanSource) {
	const view = await readWorktreeStatus(store, { now: clock.now(), plans });
	return view.works[0]?.progress;
}

describe("the plan-summary cache of `boulder status`", () => {
	it("parses an unchanged plan once, and shows the same as a parse would", async () => {
		const { store } = await startedWorktree();
		const plans = countingPlans();

		const first = await progressOf(store, plans);
		const second = await progressOf(store, plans);

		expect(first).toEqual({ total: 3, done: 1, open: 2, blocked: 0, cancelled: 0 });
		expect(second).toEqual(first);
		expect(plans.reads).toBe(1);
	});

	it("shows a plan's new counts as soon as it changes, whether it grew or was replaced at the same size", async () => {
		const { worktree, store } = await startedWorktree();
		const plans = countingPlans();
		await progressOf(store, plans);

		await writeFile(path.join(worktree, "plan.md"), `${PLAN}- [ ] celebrate\n`);
		expect(await progressOf(store, plans)).toMatchObject({ total: 4, done: 1 });

		// As an editor saves: a new file renamed over the old one, with the same length.
		await writeFile(path.join(worktree, "plan.md.new"), `${PLAN_AHEAD}- [ ] celebrate\n`);
		await rename(path.join(worktree, "plan.md.new"), path.join(worktree, "plan.md"));
		expect(await progressOf(store, plans)).toMatchObject({ total: 4, done: 2 });
		expect(plans.reads).toBe(3);
	});

	it("reads a plan changed within the settle time every time, since its times cannot tell an edit apart", async () => {
		const { worktree, store, cacheFile } = await startedWorktree();
		const plans = countingPlans(60_000);

		await progressOf(store, plans);
		// Same length, same folder entry: only the file's times could tell, and they may not have moved.
		await writeFile(path.join(worktree, "plan.md"), PLAN_AHEAD);
		expect(await progressOf(store, plans)).toMatchObject({ done: 2 });

		expect(plans.reads).toBe(2);
		expect(await readFile(cacheFile, "utf8").catch(() => "none")).toBe("none");
	});

	it("uses a kept summary only with the very stamp it was made at", async () => {
		const { worktree, store, cacheFile } = await startedWorktree();
		const plans = countingPlans();
		const stamp = await plans.stamp?.(worktree, "plan.md");
		const forged: PlanSummary = {
			progress: { total: 9, done: 9, open: 0, blocked: 0, cancelled: 0 },
			next: null,
			problem: null,
			orchestrate: false,
			titles: [],
		};
		const file = path.join(worktree, "plan.md");
		const cacheWith = (entryStamp: string) =>
			JSON.stringify({ schemaVersion: PLAN_SUMMARY_FORMAT, plans: { [file]: { stamp: entryStamp, summary: forged } } });

		await writeFile(cacheFile, cacheWith(`${stamp}0`));
		expect(await progressOf(store, plans)).toMatchObject({ total: 3, done: 1 });

		// The same entry under the file's own stamp is believed: proof the cache is what was read.
		await writeFile(cacheFile, cacheWith(stamp ?? ""));
		expect(await progressOf(store, plans)).toMatchObject({ total: 9, done: 9 });
	});

	it("ignores a torn cache or one of another format, and writes a good one in its place", async () => {
		const { worktree, store, cacheFile } = await startedWorktree();
		const plans = countingPlans();

		for (const bad of ["{", JSON.stringify({ schemaVersion: PLAN_SUMMARY_FORMAT + 1, plans: {} }), ""]) {
			await writeFile(cacheFile, bad);
			expect(await progressOf(store, plans)).toMatchObject({ total: 3, done: 1 });
			const kept = JSON.parse(await readFile(cacheFile, "utf8"));
			expect(kept.schemaVersion).toBe(PLAN_SUMMARY_FORMAT);
			expect(Object.keys(kept.plans)).toEqual([path.join(worktree, "plan.md")]);
		}
		expect(plans.reads).toBe(3);
	});

	it("lists an orchestrated work's subagents in plan order, keeping the titles once a work needs them", async () => {
		const { store, cacheFile } = await startedWorktree();
		const plans = countingPlans();
		const subagentsOf = async () =>
			(await readWorktreeStatus(store, { now: clock.now(), plans })).works[0]?.subagents?.map((entry) => entry.item);
		expect(await subagentsOf()).toEqual([]);
		const kept = () => readFile(cacheFile, "utf8").then((text) => Object.values(JSON.parse(text).plans)[0]);
		expect(await kept()).not.toHaveProperty("summary.titles");

		await store.updateWorks((current) => {
			if (current.kind !== "ok") throw new Error("no works file");
			const [id, work] = Object.entries(current.value.works)[0] ?? [];
			if (!id || !work) throw new Error("no work");
			const next = { ...work, subagentSessions: { ship: "subagent-2", test: "subagent-1" } };
			return { result: undefined, next: { ...current.value, works: { [id]: next } } };
		});

		expect(await subagentsOf()).toEqual(["test", "ship"]);
		expect(await subagentsOf()).toEqual(["test", "ship"]);
		expect(plans.reads).toBe(2);
		expect(await kept()).toHaveProperty("summary.titles", ["write", "test", "ship"]);
	});

	it("keeps no summary of a plan that is missing, and says it is missing", async () => {
		const { worktree, store, cacheFile } = await startedWorktree();
		const plans = countingPlans();
		await progressOf(store, plans);
		await rename(path.join(worktree, "plan.md"), path.join(worktree, "elsewhere.md"));

		const view = await readWorktreeStatus(store, { now: clock.now(), plans });

		expect(view.works[0]?.progress).toBeNull();
		expect(view.works[0]?.planProblem).toBe("the plan file plan.md is missing");
		expect(JSON.parse(await readFile(cacheFile, "utf8")).plans).toEqual({});
	});
});
