/**
 * Three first-day surprises, pinned against real files: starting a plan that
 * is already finished must not pause the work in progress; `boulder config`
 * keeps its columns apart and shows durations in words; and `boulder status`
 * on a corrupt works file only looks (it never moves the file aside).
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { StatusReport } from "../../src/present/render/status.js";
import { PLAN, sandbox } from "./helpers.js";

const DONE = "# Already done\n\n- [x] First\n- [x] Second\n- [-] Dropped\n";

describe("boulder start on a plan with nothing open", () => {
	it("refuses, says what stayed as it was, and leaves the active work active", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.write("done.md", DONE);
		expect((await box.run(["start", "PLAN.md"])).code).toBe(0);
		const before = await readFile(path.join(box.worktree, ".boulder", "works.json"), "utf8");

		const ran = await box.run(["start", "done.md"]);

		expect(ran.code).toBe(1);
		expect(ran.stdout).toBe("");
		expect(ran.stderr).toContain("done.md has nothing open: 2 of 3 items done (1 cancelled)");
		expect(ran.stderr).toContain('"Ship the CLI" stays the active work');
		expect(await readFile(path.join(box.worktree, ".boulder", "works.json"), "utf8")).toBe(before);
		const status = JSON.parse((await box.run(["status", "--json"])).stdout) as StatusReport;
		expect(status.worktrees[0]?.works.map((work) => [work.id, work.status])).toEqual([["ship-the-cli", "active"]]);
	});
});

describe("boulder config", () => {
	it("keeps a long value apart from its source, and shows milliseconds as a duration", async () => {
		const box = await sandbox();
		const schema = "../node_modules/boulder-agent/schema/boulder.config.schema.json";
		await box.write("boulder.config.json", JSON.stringify({ $schema: schema }));
		const ran = await box.run(["config"]);
		expect(ran.code).toBe(0);
		const lines = ran.stdout.split("\n");
		const schemaLine = lines.find((line) => line.startsWith("$schema")) ?? "";
		expect(schemaLine).toContain(`"${schema}"  ${path.join(box.worktree, "boulder.config.json")}`);
		expect(lines.find((line) => line.startsWith("budgets.wallClockMs"))).toMatch(
			/^budgets\.wallClockMs +3 h +default$/,
		);
		expect(lines.find((line) => line.startsWith("budgets.perItem.wallClockMs"))).toMatch(/ 20 min +default$/);
		// Machine output keeps the numbers.
		const json = JSON.parse((await box.run(["config", "--json"])).stdout);
		expect(json.config.budgets.wallClockMs).toBe(10_800_000);
	});
});

describe("boulder status on a corrupt works file", () => {
	it("reports it where it is, moves nothing, logs nothing, and says how it comes back", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		const state = path.join(box.worktree, ".boulder");
		await box.write(".boulder/works.json", "{ not json");
		const filesBefore = (await readdir(state)).sort();
		const logBefore = await readFile(path.join(state, "decisions.jsonl"), "utf8").catch(() => "");

		for (const args of [["status"], ["status", "--json"], ["status", "--all"], ["plans"]]) {
			const ran = await box.run(args);
			expect(ran.code, args.join(" ")).toBeLessThan(2);
		}
		const text = (await box.run(["status"])).stdout;

		expect((await readdir(state)).sort()).toEqual(filesBefore);
		expect(await readFile(path.join(state, "works.json"), "utf8")).toBe("{ not json");
		expect(await readFile(path.join(state, "decisions.jsonl"), "utf8").catch(() => "")).toBe(logBefore);
		expect(text).toContain("is unreadable");
		expect(text).toContain("left untouched");
		expect(text).toContain("moves it aside");
	});
});
