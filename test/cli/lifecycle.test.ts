/**
 * A work's life from the command line, against real files: start a plan,
 * read its status, pause, resume and abandon it, and the clear errors for
 * plans that cannot be started.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { StatusReport } from "../../src/present/render/status.js";
import { PLAN, sandbox } from "./helpers.js";

describe("boulder start", () => {
	it("makes the plan the active work and prints its progress and next item", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		const ran = await box.run(["start", "PLAN.md"]);
		expect(ran.code).toBe(0);
		expect(ran.stderr).toBe("");
		expect(ran.stdout).toContain("Started Ship the CLI (ship-the-cli)");
		expect(ran.stdout).toContain("progress  1/4 done, 1 blocked");
		expect(ran.stdout).toContain("next      Write the status command");
	});

	it("takes --name and works from a subfolder of the worktree", async () => {
		const box = await sandbox();
		await box.write("docs/plan.md", PLAN);
		const ran = await box.run(["start", "plan.md", "--name", "cli work"], { cwd: path.join(box.worktree, "docs") });
		expect(ran.code).toBe(0);
		expect(ran.stdout).toContain("Started cli work (cli-work)");
		expect(ran.stdout).toContain("plan      docs/plan.md");
	});

	it("says a missing plan is missing (exit 1)", async () => {
		const box = await sandbox();
		const ran = await box.run(["start", "NOPE.md"]);
		expect(ran.code).toBe(1);
		expect(ran.stderr).toContain("no plan file at NOPE.md");
		expect(ran.stdout).toBe("");
	});

	it("names the line and the reason of a malformed front matter", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", `---\nverify: npm test\nverify_timeout: soon\n---\n${PLAN}`);
		const ran = await box.run(["start", "PLAN.md"]);
		expect(ran.code).toBe(1);
		expect(ran.stderr).toContain('PLAN.md:3: verify_timeout must be a duration such as 90s or 5m, got "soon"');
	});

	it("refuses a plan with no items", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", "# Notes\n\nJust prose, and a fenced box:\n\n```\n- [ ] not an item\n```\n");
		const ran = await box.run(["start", "PLAN.md"]);
		expect(ran.code).toBe(1);
		expect(ran.stderr).toContain("PLAN.md has no top-level checkbox items");
	});

	it("records the worktree in the user-level index once it has state", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["status"]);
		expect(existsSync(path.join(box.env.BOULDER_STATE_HOME as string, "worktrees.json"))).toBe(false);
		await box.run(["start", "PLAN.md"]);
		const all = JSON.parse((await box.run(["status", "--all", "--json"])).stdout) as StatusReport;
		expect(all.worktrees.map((worktree) => worktree.worktree)).toEqual([box.worktree]);
	});
});

describe("boulder status", () => {
	it("shows progress, elapsed time, sessions, the next item and the last decision", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		const engine = await box.engine();
		const ref = { harness: "claude-code", sessionId: "s-1" };
		await engine.turnStarted(ref, "user");
		box.clock.advance(3_723_000);
		await engine.turnEnded(ref, { outcome: "end" });
		const idle = await engine.onIdle(ref);
		expect(idle.reason).toBe("continue");

		const text = await box.run(["status"]);
		expect(text.code).toBe(0);
		expect(text.stdout).toContain("● Ship the CLI (ship-the-cli)  active  1/4 done, 1 blocked  1h 2m 3s");
		expect(text.stdout).toContain("sessions  claude-code:s-1 (appended)");
		expect(text.stdout).toContain("next      Write the status command");
		expect(text.stdout).toContain("continued: 2 item(s) still open; continuing with: Write the status command");

		const json = JSON.parse((await box.run(["status", "--json"])).stdout) as StatusReport;
		const work = json.worktrees[0]?.works[0];
		expect(work).toMatchObject({
			id: "ship-the-cli",
			status: "active",
			active: true,
			elapsedMs: 3_723_000,
			progress: { total: 4, done: 1, open: 2, blocked: 1, cancelled: 0 },
			next: "Write the status command",
			sessions: [{ harness: "claude-code", sessionId: "s-1", how: "appended", stoppedBy: null }],
		});
		expect(work?.lastDecision?.reason).toBe("continue");
	});

	it("says when there are no works, and prints no colour codes with --json", async () => {
		const box = await sandbox();
		const text = await box.run(["status"]);
		expect(text.stdout).toContain("no works; `boulder start PLAN.md` starts one");
		const json = await box.run(["status", "--json"]);
		expect(json.stdout).not.toContain("\u001b[");
		expect(JSON.parse(json.stdout)).toMatchObject({ all: false, worktrees: [{ works: [], stopped: null }] });
	});
});

describe("boulder pause | resume | abandon", () => {
	it("moves the active work through its lifecycle", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		const statusOf = async () =>
			(JSON.parse((await box.run(["status", "--json"])).stdout) as StatusReport).worktrees[0]?.works[0]?.status;

		const paused = await box.run(["pause"]);
		expect(paused.code).toBe(0);
		expect(paused.stdout).toContain("Paused Ship the CLI");
		expect(await statusOf()).toBe("paused");

		const resumed = await box.run(["resume", "ship-the-cli"]);
		expect(resumed.code).toBe(0);
		expect(await statusOf()).toBe("active");

		box.clock.advance(65_000);
		const abandoned = await box.run(["abandon", "Ship the CLI"]);
		expect(abandoned.code).toBe(0);
		expect(abandoned.stdout).toContain("Abandoned Ship the CLI after 1m 5s");
		expect(await statusOf()).toBe("abandoned");

		// Not a usage error: the command line is right, the work is over.
		const again = await box.run(["pause", "ship-the-cli"]);
		expect(again.code).toBe(1);
		expect(again.stderr).toContain(
			'the work "Ship the CLI" is already abandoned; `boulder resume ship-the-cli` brings it back',
		);
	});

	it("says there is no active work to pause", async () => {
		const box = await sandbox();
		const ran = await box.run(["pause"]);
		expect(ran.code).toBe(1);
		expect(ran.stderr).toContain("there is no active work");
	});

	it("pausing makes the engine skip the work's session", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		const ref = { harness: "opencode", sessionId: "o-1" };
		const engine = await box.engine();
		await engine.turnStarted(ref, "user");
		await engine.turnEnded(ref, { outcome: "end" });
		expect((await engine.onIdle(ref)).reason).toBe("continue");
		await box.run(["pause"]);
		await engine.turnStarted(ref, "user");
		await engine.turnEnded(ref, { outcome: "end" });
		const idle = await (await box.engine()).onIdle(ref);
		expect(idle.reason).toBe("disabled");
		expect(idle.detail).toContain("`boulder resume`");
	});
});

describe("boulder plans", () => {
	it("lists the plans in .boulder/plans/ and the paths given, creating nothing", async () => {
		const box = await sandbox();
		await box.write(".boulder/plans/a.md", PLAN);
		await box.write("docs/b.md", "---\nname: Bee\n---\n- [x] done\n- [x] also done\n");
		await box.write("docs/notes.txt", "not a plan");
		const ran = await box.run(["plans", "docs", "--json"]);
		expect(ran.code).toBe(0);
		const out = JSON.parse(ran.stdout) as { plans: Array<{ path: string; name: string; progress: unknown }> };
		expect(out.plans.map((plan) => [plan.path, plan.name])).toEqual([
			[".boulder/plans/a.md", "Ship the CLI"],
			["docs/b.md", "Bee"],
		]);
		expect(out.plans[1]?.progress).toMatchObject({ total: 2, done: 2, open: 0 });
		expect(existsSync(path.join(box.worktree, ".boulder", "works.json"))).toBe(false);
		expect(existsSync(path.join(box.worktree, ".boulder", "scopes"))).toBe(false);
	});

	it("shows plan errors with their lines, and fails for a path that does not exist", async () => {
		const box = await sandbox();
		await box.write("bad.md", "---\nverify: [unclosed\n---\n- [ ] one\n");
		const ran = await box.run(["plans", "bad.md", "missing.md"]);
		expect(ran.code).toBe(1);
		expect(ran.stderr).toMatch(/bad\.md:2: verify: /);
		expect(ran.stderr).toContain("no such file or folder: missing.md");
		expect(ran.stdout).not.toContain("missing.md");
	});

	it("marks a plan that a work rolls", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		const ran = await box.run(["plans", "PLAN.md"]);
		expect(ran.stdout).toContain("active as ship-the-cli");
	});
});
