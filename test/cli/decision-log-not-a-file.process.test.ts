/**
 * `status`, `why` and `doctor` when the decision log is a FIFO, a folder or a
 * link a checkout planted:
 * a message naming what and where, never "unexpected error", and nothing
 * moved (a read command changes nothing). The next hook event moves it aside.
 */
import { execFileSync } from "node:child_process";
import { lstatSync } from "node:fs";
import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PLAN, sandbox } from "./helpers.js";

const MAKERS = {
	"a FIFO (named pipe)": (file: string) => execFileSync("mkfifo", [file]),
	"a folder": (file: string) => mkdir(file),
	// What a checkout can plant: bash would run `$(…)` from a logged plan title at the next shell start.
	"a link to ../../.bashrc": async (file: string) => {
		await writeFile(path.join(file, "../../../.bashrc"), BASHRC);
		await symlink("../../.bashrc", file);
	},
} as const;

const BASHRC = "# the user's shell start-up\n";

describe.each(Object.entries(MAKERS))("decisions.jsonl is %s", (what, make) => {
	it("status, why and doctor name it; none says 'unexpected error'", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		expect((await box.run(["start", "PLAN.md"])).code).toBe(0);
		const log = path.join(box.worktree, ".boulder", "decisions.jsonl");
		await rm(log);
		await make(log);

		for (const command of [["status"], ["why"], ["doctor"]]) {
			const ran = await box.run(command);
			const said = ran.stdout + ran.stderr;
			expect(said, command.join(" ")).not.toContain("unexpected error");
			expect(said, command.join(" ")).toContain(log);
			expect(said, command.join(" ")).toContain(`${what}, not a regular file`);
		}
		expect(lstatSync(log).isFile()).toBe(false);

		// A hook event moves it aside and starts a fresh log, which says so.
		const engine = await box.engine();
		await engine.onIdle({ harness: "claude-code", sessionId: "s1" });
		expect(lstatSync(log).isFile()).toBe(true);
		if (what.includes("link")) expect(await readFile(path.join(box.root, ".bashrc"), "utf8")).toBe(BASHRC);
		const doctor = await box.run(["doctor"]);
		expect(doctor.stdout + doctor.stderr).toContain("decisions.jsonl");
		expect(doctor.stdout + doctor.stderr).toContain("moved aside");
	});
});
