/**
 * `boulder abandon` with no work named gives up the active one: it asks on
 * a terminal, refuses without `--yes` anywhere else (exit 2, nothing
 * changed), and whatever was abandoned comes back with `boulder resume`.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Input } from "../../src/cli/io.js";
import type { StatusReport } from "../../src/present/render/status.js";
import { PLAN, type Sandbox, sandbox } from "./helpers.js";

async function worksOf(box: Sandbox) {
	return (JSON.parse((await box.run(["status", "--json"])).stdout) as StatusReport).worktrees[0]?.works ?? [];
}

function terminal(answer: string): Input & { asked: string[] } {
	const asked: string[] = [];
	return {
		isTTY: true,
		asked,
		async ask(question) {
			asked.push(question);
			return answer;
		},
	};
}

describe("boulder abandon without a work", () => {
	it("refuses off a terminal without --yes (exit 2) and changes nothing", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		const before = await readFile(path.join(box.worktree, ".boulder", "works.json"), "utf8");

		const ran = await box.run(["abandon"]);

		expect(ran.code).toBe(2);
		expect(ran.stdout).toBe("");
		expect(ran.stderr).toContain("`boulder abandon --yes`");
		expect(ran.stderr).toContain('"Ship the CLI" (ship-the-cli)');
		expect(await readFile(path.join(box.worktree, ".boulder", "works.json"), "utf8")).toBe(before);
	});

	it("asks on a terminal: no keeps the work, yes abandons it", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);

		const no = terminal("n");
		const kept = await box.run(["abandon"], { stdin: no });
		expect(no.asked[0]).toContain('Abandon the active work "Ship the CLI" (ship-the-cli)?');
		expect(kept.code).toBe(0);
		expect(kept.stdout).toContain("Nothing changed");
		expect((await worksOf(box))[0]?.status).toBe("active");

		const abandoned = await box.run(["abandon"], { stdin: terminal("y") });
		expect(abandoned.code).toBe(0);
		expect(abandoned.stdout).toContain("`boulder resume ship-the-cli` brings it back");
		expect((await worksOf(box))[0]?.status).toBe("abandoned");
	});

	it("abandons at once with --yes", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		expect((await box.run(["abandon", "--yes"])).code).toBe(0);
		expect((await worksOf(box))[0]?.status).toBe("abandoned");
	});
});

describe("undoing an abandon", () => {
	it("boulder resume brings an abandoned work back as the active one, and the engine nudges for it again", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		await box.run(["abandon", "--yes"]);

		const resumed = await box.run(["resume", "ship-the-cli"]);

		expect(resumed.code).toBe(0);
		expect(resumed.stdout).toContain("Resumed Ship the CLI");
		const [work] = await worksOf(box);
		expect(work?.status).toBe("active");
		const ref = { harness: "opencode", sessionId: "o-1" };
		const engine = await box.engine();
		await engine.turnStarted(ref, "user");
		await engine.turnEnded(ref, { outcome: "end" });
		expect((await engine.onIdle(ref)).reason).toBe("continue");
	});

	it("refuses to bring one back while another work rolls the same plan", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		await box.run(["abandon", "--yes"]);
		await box.run(["start", "PLAN.md"]);
		const ran = await box.run(["resume", "ship-the-cli"]);
		expect(ran.code).toBe(1);
		expect(ran.stderr).toContain('PLAN.md is rolled by the work "Ship the CLI" (ship-the-cli-2, active) now');
	});
});
