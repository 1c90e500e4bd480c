/**
 * A lock left by a holder that died before the clock stepped back (an NTP step,
 * a VM restore) is dated in the future. It must not wedge every command and
 * hook until the clock catches up.
 */
import { mkdir, readdir, utimes } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PLAN, sandbox } from "./helpers.js";

describe("a dead lock dated a day ahead", () => {
	it("does not stop `boulder pause`, nor an engine update from a hook", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		expect((await box.run(["start", "PLAN.md"])).code).toBe(0);
		const dayAhead = new Date(Date.now() + 24 * 3600_000);
		for (const name of ["works.json.lock", "decisions.jsonl.lock"]) {
			const folder = path.join(box.worktree, ".boulder", name);
			await mkdir(folder);
			await utimes(folder, dayAhead, dayAhead);
		}
		const paused = await box.run(["pause"]);
		expect(paused.stderr).toBe("");
		expect(paused.code).toBe(0);
		const engine = await box.engine();
		const ref = { harness: "claude-code", sessionId: "s1" };
		await engine.todosChanged(ref, [{ id: "1", content: "write it", status: "pending" }]);
		const scopes = path.join(box.worktree, ".boulder", "scopes");
		const scopeFiles = (await readdir(scopes)).filter((name) => name.endsWith(".json"));
		expect(scopeFiles.length).toBeGreaterThan(0);
		for (const name of [...scopeFiles.map((file) => `scopes/${file}`), "works.json", "decisions.jsonl"]) {
			const folder = path.join(box.worktree, ".boulder", `${name}.lock`);
			await mkdir(folder, { recursive: true });
			await utimes(folder, dayAhead, dayAhead);
		}
		await engine.todosChanged(ref, [{ id: "1", content: "write it", status: "completed" }]);
		const why = await box.run(["why"]);
		expect(why.code).toBe(0);
	});
});
