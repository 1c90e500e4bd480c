/** `boulder log`: the decision log as stored, newest last, and `--follow` until aborted. */
import { describe, expect, it } from "vitest";
import { newSince } from "../../src/cli/follow-log.js";
import type { DecisionRecord } from "../../src/core/decision-record.js";
import { PLAN, sandbox } from "./helpers.js";

describe("boulder log", () => {
	it("prints the newest N records as JSON lines, newest last", async () => {
		const box = await sandbox();
		await box.write("PLAN.md", PLAN);
		await box.run(["start", "PLAN.md"]);
		await box.run(["stop"]);
		await box.run(["go"]);
		const ran = await box.run(["log", "--json", "-n", "2"]);
		expect(ran.code).toBe(0);
		const records = ran.stdout
			.trimEnd()
			.split("\n")
			.map((text) => JSON.parse(text) as DecisionRecord);
		expect(records.map((record) => [record.kind, record.reason])).toEqual([
			["event", "stopped"],
			["event", "resumed"],
		]);
		expect(records[0]).toMatchObject({ v: 1, worktree: box.worktree, session: null });
	});

	it("prints nothing for an empty log, and a readable line per record without --json", async () => {
		const box = await sandbox();
		expect((await box.run(["log"])).stdout).toBe("");
		await box.run(["stop"]);
		const text = (await box.run(["log"])).stdout;
		expect(text).toMatch(/^\d{4}-\d{2}-\d{2} 14:02:00 {2}event {4}stopped {10}- {2}continuation turned off/);
	});

	it("--follow prints the lines that come later and ends when aborted", async () => {
		const box = await sandbox();
		box.env.BOULDER_LOG_POLL_MS = "10";
		await box.run(["stop"]);
		const controller = new AbortController();
		let out = "";
		const following = (async () => {
			const { main } = await import("../../src/cli/main.js");
			return main(["log", "--follow", "--json"], {
				stdout: {
					write: (chunk: string) => {
						out += chunk;
						if (out.includes('"reason":"resumed"')) controller.abort();
					},
				},
				stderr: { write: () => true },
				env: box.env,
				cwd: box.worktree,
				clock: box.clock,
				signal: controller.signal,
			});
		})();
		await waitUntil(() => out.includes('"reason":"stopped"'));
		await box.run(["go"]);
		expect(await following).toBe(0);
		const reasons = out
			.trimEnd()
			.split("\n")
			.map((text) => (JSON.parse(text) as DecisionRecord).reason);
		expect(reasons).toEqual(["stopped", "resumed"]);
	});
});

describe("newSince", () => {
	const at = (n: number, reason = "r"): DecisionRecord => ({
		v: 1,
		at: n,
		worktree: "/w",
		scope: null,
		harness: null,
		session: null,
		work: null,
		kind: "event",
		reason,
		detail: "",
	});

	it("returns what follows the last record shown", () => {
		expect(newSince([at(1), at(2), at(3)], at(2)).fresh).toEqual([at(3)]);
		expect(newSince([at(1), at(2)], at(2)).fresh).toEqual([]);
		expect(newSince([at(1)], null).fresh).toEqual([at(1)]);
	});

	it("reports a gap when the last record shown is no longer in reach", () => {
		expect(newSince([at(5), at(6)], at(2))).toEqual({ fresh: [at(5), at(6)], gap: true });
	});
});

async function waitUntil(test: () => boolean): Promise<void> {
	for (let tries = 0; tries < 500; tries++) {
		if (test()) return;
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	throw new Error("condition never became true");
}
