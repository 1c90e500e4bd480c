/**
 * Foreign state from the command line: `boulder doctor` explains a work that
 * came with the checkout, `boulder why` says it was not acted on, and
 * `boulder trust` takes it on, showing the verify commands it approves.
 */
import { realpath } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { committedWorks } from "../support/committed-works.js";
import { sandbox } from "./helpers.js";

const PLAN = `---\nverify: ["npm test"]\n---\n# Build\n\n- [x] one\n`;

async function clone() {
	const box = await sandbox();
	await box.write("plan.md", PLAN);
	await box.write(".boulder/works.json", JSON.stringify(committedWorks({ verify: ["npm test"] })));
	return box;
}

describe("foreign state", () => {
	it("`boulder doctor` explains a work that came with the checkout and how to take it on", async () => {
		const box = await clone();
		const ran = await box.run(["doctor"]);
		expect(ran.stdout).toContain('foreign state: the work "Build" (plan.md)');
		expect(ran.stdout).toContain("`boulder start plan.md` or `boulder trust`");
	});

	it("`boulder why` says the work was not acted on, and why", async () => {
		const box = await clone();
		const engine = await box.engine();
		const ref = { harness: "claude-code", sessionId: "s1" };
		await engine.turnStarted(ref, "user");
		await engine.turnEnded(ref, { outcome: "end" });
		await engine.onIdle(ref);
		const ran = await box.run(["why"]);
		expect(ran.stdout).toContain("foreign state");
		expect(ran.stdout).toContain("`boulder start plan.md`");
	});

	it("`boulder status` marks the work boulder leaves alone, names `boulder trust`, and drops the mark once trusted", async () => {
		const box = await clone();
		const before = await box.run(["status"]);
		// The committed works file names "." as its worktree, as a cloned one does.
		expect(before.stdout).toContain("not yours yet: it names another folder as its worktree");
		expect(before.stdout).toContain("`boulder trust` moves it to this one");
		const json = JSON.parse((await box.run(["status", "--json"])).stdout);
		expect(json.worktrees[0].works[0].foreign).toBe("other-worktree");
		await box.run(["trust"]);
		const after = await box.run(["status"]);
		expect(after.stdout).toContain("Build");
		expect(after.stdout).not.toContain("not yours");
		expect(JSON.parse((await box.run(["status", "--json"])).stdout).worktrees[0].works[0].foreign).toBeNull();
	});

	it("`boulder status` marks a work that names this worktree but that boulder did not record for you", async () => {
		const box = await sandbox();
		await box.write("plan.md", PLAN);
		await box.write(
			".boulder/works.json",
			JSON.stringify(committedWorks({ verify: ["npm test"], worktree: await realpath(box.worktree) })),
		);
		const ran = await box.run(["status"]);
		expect(ran.stdout).toContain("not yours yet: boulder did not record that you started it on this machine");
		expect(ran.stdout).toContain("`boulder trust` takes it on");
	});

	it("`boulder trust` takes the work on and shows the verify commands it approves; doctor is quiet after", async () => {
		const box = await clone();
		const trusted = await box.run(["trust"]);
		expect(trusted.code).toBe(0);
		expect(trusted.stdout).toContain("Trusted Build (plan.md).");
		expect(trusted.stdout).toContain("    npm test");
		const doctor = await box.run(["doctor"]);
		expect(doctor.stdout).not.toContain("foreign state");
	});
});
