/**
 * Regressions from a hostile-input review of the CLI: a torn log line, a
 * folder given as a plan, repeated and concurrent lifecycle commands, an
 * unknown harness, accented names, a newer boulder's state and a corrupt
 * worktree index. Each says what is wrong and loses nothing.
 */
import { appendFile, mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createRegistry } from "../../src/adapters/registry.js";
import type { DecisionRecord } from "../../src/core/decision-record.js";
import type { DoctorFinding } from "../../src/engine/doctor-types.js";
import type { PlanSummary } from "../../src/engine/plan-list.js";
import type { StatusReport } from "../../src/present/render/status.js";
import { PLAN, sandbox } from "./helpers.js";

const OTHER_PLAN = "# Other things\n\n- [ ] first\n- [ ] second\n";

async function logOf(box: Awaited<ReturnType<typeof sandbox>>): Promise<DecisionRecord[]> {
	const ran = await box.run(["log", "--json", "-n", "100"]);
	return ran.stdout
		.split("\n")
		.filter(Boolean)
		.map((line) => JSON.parse(line) as DecisionRecord);
}

describe("a torn last line in the decision log", () => {
	it("does not hide the next decision from `boulder why`", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		await appendFile(path.join(box.worktree, ".boulder", "decisions.jsonl"), '{"v":1,"at":1');
		const engine = await box.engine();
		const ref = { harness: "claude-code", sessionId: "s-1" };
		await engine.turnStarted(ref, "user");
		await engine.turnEnded(ref, { outcome: "end" });
		expect((await engine.onIdle(ref)).kind).toBe("inject");

		const why = await box.run(["why"]);
		expect(why.code).toBe(0);
		expect(why.stdout).not.toContain("No decisions yet");
		expect(why.stdout).toContain("Write the status command");
		const doctor = await box.run(["doctor"]);
		expect(doctor.stdout).toContain("1 line(s) of the decision log could not be read and are skipped");
	});
});

describe("boulder start", () => {
	it("says a folder is not a plan file (exit 1), and creates nothing", async () => {
		const box = await sandbox();
		await box.write("docs/PLAN.md", PLAN);
		const ran = await box.run(["start", "docs"]);
		expect(ran.code).toBe(1);
		expect(ran.stderr).toContain("boulder: docs is a folder, not a plan file");
		expect(ran.stderr).toContain("`boulder plans docs` lists them");
		expect(ran.stderr).not.toContain("unexpected error");
		expect(await readdir(box.worktree)).not.toContain(".boulder");
	});

	it("of eight at once, exactly one says Started; the others find it already active", async () => {
		const box = await sandbox();
		await box.write("a.md", PLAN);
		const runs = await Promise.all(Array.from({ length: 8 }, () => box.run(["start", "a.md"])));
		expect(runs.map((ran) => ran.code)).toEqual(Array(8).fill(0));
		const said = runs.map((ran) => ran.stdout.split(" ")[0]);
		expect(said.filter((word) => word === "Started")).toHaveLength(1);
		expect(runs.filter((ran) => ran.stdout.startsWith("Already active Ship the CLI"))).toHaveLength(7);
		const started = (await logOf(box)).filter((record) => record.reason === "work-started");
		expect(started).toHaveLength(1);
	});

	it("says which work it paused to make way, and `resume` does the same", async () => {
		const box = await sandbox();
		await box.write("a.md", PLAN);
		await box.write("b.md", OTHER_PLAN);
		await box.run(["start", "a.md"]);
		const b = await box.run(["start", "b.md"]);
		expect(b.code).toBe(0);
		expect(b.stdout).toContain(
			"Paused Ship the CLI (ship-the-cli), which was the active work; `boulder resume ship-the-cli` makes it active again.",
		);
		const resumed = await box.run(["resume", "ship-the-cli"]);
		expect(resumed.stdout).toContain("Resumed Ship the CLI");
		expect(resumed.stdout).toContain("Paused Other things (other-things), which was the active work");
		const paused = (await logOf(box)).filter((record) => record.reason === "work-paused");
		expect(paused.map((record) => record.work)).toEqual(["ship-the-cli", "other-things"]);
	});

	it("makes an id of an accented name without splitting its letters", async () => {
		const box = await sandbox();
		await box.write("a.md", PLAN);
		const ran = await box.run(["start", "a.md", "--name", "Café Über"]);
		expect(ran.stdout).toContain("Started Café Über (cafe-uber)");
	});
});

describe("boulder pause | resume", () => {
	it("pausing twice says so the second time and logs one pause", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		expect((await box.run(["pause"])).stdout).toContain("Paused Ship the CLI");
		const again = await box.run(["pause", "ship-the-cli"]);
		expect(again.code).toBe(0);
		expect(again.stdout).toContain("Ship the CLI is already paused; nothing changed.");
		expect((await box.run(["resume"])).stdout).toContain("Resumed Ship the CLI");
		const resumedAgain = await box.run(["resume", "ship-the-cli"]);
		expect(resumedAgain.code).toBe(0);
		expect(resumedAgain.stdout).toContain("Ship the CLI is already the active work; nothing changed.");
		const reasons = (await logOf(box)).map((record) => record.reason);
		expect(reasons.filter((reason) => reason === "work-paused")).toHaveLength(1);
		expect(reasons.filter((reason) => reason === "work-resumed")).toHaveLength(1);
	});
});

describe("boulder stop --session", () => {
	it("refuses a harness boulder does not know (exit 2), naming the ones it knows", async () => {
		const box = await sandbox();
		const ran = await box.run(["stop", "--session", "X", "--harness", "bogus"]);
		expect(ran.code).toBe(2);
		expect(ran.stderr).toContain(`no harness named "bogus"; boulder knows: ${createRegistry().names().join(", ")}`);
		expect(await readdir(box.worktree)).not.toContain(".boulder");
		// A known harness but a session boulder has not seen: refused too, and still no state made.
		expect((await box.run(["stop", "--session", "X", "--harness", "claude-code"])).code).toBe(2);
		expect(await readdir(box.worktree)).not.toContain(".boulder");
	});
});

describe("boulder plans", () => {
	it("lists the plan of a work just started, wherever the plan lives", async () => {
		const box = await sandbox();
		await box.write("docs/launch.md", PLAN);
		await box.run(["start", "docs/launch.md"]);
		const ran = await box.run(["plans", "--json"]);
		expect(ran.code).toBe(0);
		const plans = (JSON.parse(ran.stdout) as { plans: PlanSummary[] }).plans;
		expect(plans.map((plan) => [plan.path, plan.work])).toEqual([
			["docs/launch.md", { id: "ship-the-cli", status: "active" }],
		]);
	});
});

describe("boulder doctor", () => {
	it("tells to upgrade boulder, not to delete, for a works file a newer boulder wrote", async () => {
		const box = await sandbox();
		const works = await box.write(
			".boulder/works.json",
			JSON.stringify({ schemaVersion: 99, activeWorkId: null, works: {} }),
		);
		const before = await box.run(["doctor", "--json"]);
		const inPlace = (JSON.parse(before.stdout) as { findings: DoctorFinding[] }).findings;
		expect(inPlace).toContainEqual(
			expect.objectContaining({
				file: works,
				fix: expect.stringMatching(/^a newer boulder wrote it: upgrade boulder/),
			}),
		);

		// A command that only reads leaves it in place; one that writes moves it aside, and the doctor
		// still says upgrade, and to keep the copy.
		await box.run(["status"]);
		expect((await readdir(path.dirname(works))).filter((name) => name.startsWith("works.json."))).toEqual([]);
		await box.run(["pause"]);
		const aside = (await readdir(path.dirname(works))).find((name) => name.startsWith("works.json.future-"));
		expect(aside).toBeDefined();
		const after = await box.run(["doctor"]);
		expect(after.code).toBe(1);
		expect(after.stdout).toContain(`${works} was written by a newer boulder`);
		expect(after.stdout).toContain(`fix: upgrade boulder, then put ${aside} back as works.json`);
		expect(after.stdout).not.toContain("then delete it");
	});
});

describe("boulder status --all", () => {
	it("says the worktree index was unreadable and where it went, instead of claiming no worktrees", async () => {
		const box = await sandbox();
		const stateHome = box.env.BOULDER_STATE_HOME as string;
		await mkdir(stateHome, { recursive: true });
		await writeFile(path.join(stateHome, "worktrees.json"), "{ not json");

		const json = JSON.parse((await box.run(["status", "--all", "--json"])).stdout) as StatusReport;
		const aside = (await readdir(stateHome)).find((name) => name.startsWith("worktrees.json.corrupt-"));
		expect(aside).toBeDefined();
		expect(json.indexProblem).toContain(
			`the worktree index ${path.join(stateHome, "worktrees.json")} could not be read`,
		);
		expect(json.indexProblem).toContain(`moved aside to ${path.join(stateHome, aside as string)}`);

		const doctor = await box.run(["doctor"]);
		expect(doctor.stdout).toContain(`moved aside to ${path.join(stateHome, aside as string)}`);
	});

	it("prints the index problem instead of 'No worktrees known yet'", async () => {
		const box = await sandbox();
		const stateHome = box.env.BOULDER_STATE_HOME as string;
		await mkdir(stateHome, { recursive: true });
		await writeFile(path.join(stateHome, "worktrees.json"), "{ not json");
		const ran = await box.run(["status", "--all"]);
		expect(ran.code).toBe(0);
		expect(ran.stdout).toContain("could not be read (corrupt: not JSON");
		expect(ran.stdout).toContain("`boulder doctor` says more");
		expect(ran.stdout).not.toContain("No worktrees known yet");
	});
});

describe("a bad config in status", () => {
	it("is said by status and status --all, naming the file and key, while the work still shows", async () => {
		const box = await sandbox();
		await box.write("plan.md", PLAN);
		await box.run(["start", "plan.md"]);
		await box.write("boulder.config.json", '{"stagnationLimit":0}');
		for (const args of [["status"], ["status", "--all"]]) {
			const { stdout } = await box.run(args);
			expect(stdout).toContain("boulder's config is invalid, so nothing is continued here until it is fixed");
			expect(stdout).toContain("stagnationLimit");
		}
		const json = JSON.parse((await box.run(["status", "--json"])).stdout);
		expect(json.worktrees[0].configProblem).toContain("boulder.config.json");
		await box.write("boulder.config.json", "{}");
		expect((await box.run(["status"])).stdout).not.toContain("config is invalid");
	});
});
