/** `boulder status --all`: every worktree in the user-level index; vanished ones are skipped and named. */
import { rm } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { StatusReport } from "../../src/present/render/status.js";
import { PLAN, sandbox } from "./helpers.js";

describe("boulder status --all", () => {
	it("reads every known worktree and mentions the ones that vanished", async () => {
		const box = await sandbox();
		const others = [await box.another("two"), await box.another("three")];
		for (const dir of [box.worktree, ...others]) {
			await box.write(path.relative(box.worktree, path.join(dir, "PLAN.md")), PLAN);
			expect((await box.run(["start", "PLAN.md"], { cwd: dir })).code).toBe(0);
			box.clock.advance(1000);
		}
		await box.run(["stop"], { cwd: others[0] });
		await rm(others[1] as string, { recursive: true, force: true });

		const ran = await box.run(["status", "--all", "--json"]);
		expect(ran.code).toBe(0);
		const report = JSON.parse(ran.stdout) as StatusReport;
		expect(report.all).toBe(true);
		expect(report.worktrees.map((worktree) => worktree.worktree).sort()).toEqual([box.worktree, others[0]].sort());
		expect(report.vanished).toEqual([others[1]]);
		const two = report.worktrees.find((worktree) => worktree.worktree === others[0]);
		expect(two?.stopped?.by).toBe("`boulder stop`");
		expect(two?.works[0]?.progress?.total).toBe(4);

		const text = (await box.run(["status", "--all"])).stdout;
		expect(text).toContain(`Skipped 1 worktree(s) that no longer exist:\n  ${others[1]}`);
	});

	it("lists a worktree whose works file is unreadable with its problem, and goes on", async () => {
		const box = await sandbox();
		const other = await box.another("two");
		for (const dir of [box.worktree, other]) {
			await box.write(path.relative(box.worktree, path.join(dir, "PLAN.md")), PLAN);
			await box.run(["start", "PLAN.md"], { cwd: dir });
		}
		await box.write(path.relative(box.worktree, path.join(other, ".boulder", "works.json")), "{");
		const report = JSON.parse((await box.run(["status", "--all", "--json"])).stdout) as StatusReport;
		const broken = report.worktrees.find((worktree) => worktree.worktree === other);
		expect(broken?.problem).toContain("is unreadable");
		const fine = report.worktrees.find((worktree) => worktree.worktree === box.worktree);
		expect(fine?.works).toHaveLength(1);
	});
});
