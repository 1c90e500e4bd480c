/**
 * `boulder stop` must hold: after it, every engine on the worktree (a new
 * instance, as after a harness restart) answers `disabled` until `boulder go`.
 */
import { describe, expect, it } from "vitest";
import type { Engine, SessionRef } from "../../src/engine/engine.js";
import type { StatusReport } from "../../src/present/render/status.js";
import { PLAN, sandbox } from "./helpers.js";

async function idleAfterUserTurn(engine: Engine, ref: SessionRef) {
	await engine.turnStarted(ref, "user");
	await engine.turnEnded(ref, { outcome: "end" });
	return engine.onIdle(ref);
}

describe("boulder stop / go", () => {
	it("stops the whole worktree across new engine instances until go", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		const ref = { harness: "claude-code", sessionId: "s-1" };

		const stopped = await box.run(["stop"]);
		expect(stopped.code).toBe(0);
		expect(stopped.stdout).toContain("until `boulder go`");

		const first = await idleAfterUserTurn(await box.engine(), ref);
		expect(first.kind).toBe("skip");
		expect(first.reason).toBe("disabled");
		expect(first.detail).toContain("continuation is stopped in this worktree (by `boulder stop`)");

		// A restart of the harness: a brand-new engine reads the switch from disk.
		const afterRestart = await idleAfterUserTurn(await box.engine(), ref);
		expect(afterRestart.reason).toBe("disabled");

		const status = JSON.parse((await box.run(["status", "--json"])).stdout) as StatusReport;
		expect(status.worktrees[0]?.stopped?.by).toBe("`boulder stop`");

		const go = await box.run(["go"]);
		expect(go.code).toBe(0);
		expect(go.stdout).toContain("On again");
		const resumed = await idleAfterUserTurn(await box.engine(), ref);
		expect(resumed.kind).toBe("inject");
		expect(resumed.reason).toBe("continue");
	});

	it("stops without any work started, and go says when nothing was stopped", async () => {
		const box = await sandbox();
		expect((await box.run(["go"])).stdout).toContain("was not stopped");
		expect((await box.run(["stop"])).code).toBe(0);
		const engine = await box.engine();
		const ref = { harness: "opencode", sessionId: "o-1" };
		await engine.todosChanged(ref, [{ content: "a thing", status: "pending" }]);
		expect((await idleAfterUserTurn(engine, ref)).reason).toBe("disabled");
	});

	it("stops one session only with --session and --harness", async () => {
		const box = await sandbox();
		const one = { harness: "opencode", sessionId: "o-1" };
		const two = { harness: "opencode", sessionId: "o-2" };
		const engine = await box.engine();
		for (const ref of [one, two]) await engine.todosChanged(ref, [{ content: "a thing", status: "pending" }]);

		const ran = await box.run(["stop", "--session", "o-1", "--harness", "opencode"]);
		expect(ran.code).toBe(0);
		expect(ran.stdout).toContain("opencode session o-1");
		expect((await idleAfterUserTurn(await box.engine(), one)).reason).toBe("disabled");
		expect((await idleAfterUserTurn(await box.engine(), two)).reason).toBe("continue");

		await box.run(["go", "--session", "o-1", "--harness", "opencode"]);
		expect((await idleAfterUserTurn(await box.engine(), one)).reason).toBe("continue");
	});

	it("shows a session stopped on its own in status", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		const ref = { harness: "claude-code", sessionId: "s-1" };
		await idleAfterUserTurn(await box.engine(), ref);
		await box.run(["stop", "--session", "s-1", "--harness", "claude-code"]);
		const status = await box.run(["status"]);
		expect(status.stdout).toContain("claude-code:s-1 (appended) stopped by `boulder stop`");
	});

	it("keeps working when the config is broken", async () => {
		const box = await sandbox();
		await (await box.engine()).todosChanged({ harness: "claude-code", sessionId: "x" }, [
			{ content: "a thing", status: "pending" },
		]);
		await box.write("boulder.config.json", '{ "stagnationLimit": "lots" }');
		expect((await box.run(["stop"])).code).toBe(0);
		expect((await box.run(["stop", "--session", "x", "--harness", "claude-code"])).code).toBe(0);
	});

	it("refuses --harness without --session (exit 2)", async () => {
		const box = await sandbox();
		const ran = await box.run(["stop", "--harness", "claude-code"]);
		expect(ran.code).toBe(2);
		expect(ran.stderr).toContain("--harness goes with --session");
	});
});
