/**
 * The dashboard's read model over the real file store: a look reads what
 * changed and nothing else, follows the decision log, and only looks (a bad
 * works file is reported and left where it is).
 */
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Fleet } from "../../src/engine/fleet.js";
import { PLAN, sandbox } from "../cli/helpers.js";

async function started() {
	const box = await sandbox();
	await box.write("PLAN.md", PLAN);
	expect((await box.run(["start", "PLAN.md"])).code).toBe(0);
	return box;
}

describe("the fleet read model", () => {
	it("reads every worktree of the index once, then only what changed", async () => {
		const box = await started();
		const fleet = new Fleet({ env: box.env });
		const first = await fleet.look();
		expect(first.changed).toEqual([box.worktree]);
		expect(fleet.snapshot().worktrees[0]?.works[0]?.progress).toMatchObject({ done: 1, total: 4 });
		expect(fleet.snapshot().timeline.map((r) => r.reason)).toEqual(["work-started"]);

		expect(await fleet.look()).toEqual({ changed: [], removed: [], fresh: [], index: false });

		await box.write("PLAN.md", PLAN.replace("- [ ] Write the status command", "- [x] Write the status command"));
		const planChanged = await fleet.look();
		expect(planChanged.changed).toEqual([box.worktree]);
		expect(fleet.snapshot().worktrees[0]?.works[0]?.progress).toMatchObject({ done: 2, total: 4 });
	});

	it("hands over each new decision once, and shows the session with its episode", async () => {
		const box = await started();
		const fleet = new Fleet({ env: box.env });
		await fleet.look();
		const engine = await box.engine();
		const ref = { harness: "claude-code", sessionId: "s1" };
		await engine.turnStarted(ref, "user");
		await engine.turnEnded(ref, { outcome: "end" });
		await engine.onIdle(ref);
		const change = await fleet.look();
		expect(change.fresh.map((r) => r.reason)).toEqual(["user-turn", "continue"]);
		expect((await fleet.look()).fresh).toEqual([]);
		const session = fleet.snapshot().worktrees[0]?.sessions[0];
		expect(session).toMatchObject({ harness: "claude-code", sessionId: "s1", work: "ship-the-cli" });
		expect(session?.state?.episode?.autoTurns).toBe(1);
		expect(session?.lastRecord?.reason).toBe("continue");
	});

	it("reports a corrupt works file and leaves it in place", async () => {
		const box = await started();
		const works = path.join(box.worktree, ".boulder", "works.json");
		await writeFile(works, "{ not json");
		const fleet = new Fleet({ env: box.env });
		await fleet.look();
		expect(fleet.snapshot().worktrees[0]?.problem).toContain("the works file could not be read");
		expect(await readFile(works, "utf8")).toBe("{ not json");
		expect((await readdir(path.join(box.worktree, ".boulder"))).filter((name) => name.includes("corrupt"))).toEqual([]);
	});

	it("shows a worktree whose folder is gone as vanished", async () => {
		const box = await started();
		const fleet = new Fleet({ env: box.env });
		await fleet.look();
		await rm(box.worktree, { recursive: true, force: true });
		expect((await fleet.look()).changed).toEqual([box.worktree]);
		expect(fleet.snapshot().worktrees[0]).toMatchObject({ vanished: true });
	});
});
