/**
 * What the commands that hand a plan over say: exactly what the engine will
 * do. A work nobody rolls goes to the next session that goes idle; one that
 * is bound is handed to the next other session, and the message names the
 * sessions bound so far.
 */
import { describe, expect, it } from "vitest";
import { PLAN, sandbox } from "./helpers.js";

async function rolled() {
	const box = await sandbox();
	await box.write("PLAN.md", PLAN);
	const first = await box.run(["start", "PLAN.md"]);
	expect(first.stdout).toContain("The next session that goes idle in this worktree rolls it");
	const engine = await box.engine();
	const ref = { harness: "claude-code", sessionId: "sess-a" };
	await engine.turnStarted(ref, "user");
	await engine.turnEnded(ref, { outcome: "end" });
	expect((await engine.onIdle(ref)).kind).toBe("inject");
	return box;
}

describe("handing a plan over from the command line", () => {
	it("`boulder start` on the bound active work says it is handed over, and to whom it was bound", async () => {
		const box = await rolled();
		const again = await box.run(["start", "PLAN.md"]);
		expect(again.code).toBe(0);
		expect(again.stdout).toContain("Already active");
		expect(again.stdout).toContain(
			"Handed over: the next other session that goes idle in this worktree joins it (bound so far: claude-code session sess-a).",
		);
		expect(again.stdout).not.toContain("The next session that goes idle in this worktree rolls it");
		const engine = await box.engine();
		const next = { harness: "opencode", sessionId: "sess-b" };
		await engine.turnStarted(next, "user");
		await engine.turnEnded(next, { outcome: "end" });
		expect((await engine.onIdle(next)).kind).toBe("inject");
	});

	it("`boulder go` and `boulder resume` say they hand it over", async () => {
		const box = await rolled();
		const go = await box.run(["go"]);
		expect(go.stdout).toContain("Continuation was not stopped");
		expect(go.stdout).toContain("Handed over: the next other session that goes idle in this worktree joins it");
		await box.run(["pause"]);
		const resumed = await box.run(["resume"]);
		expect(resumed.stdout).toContain("Handed over");
	});
});
