/** The decision log written by several processes at once, across rotations. */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readDecisionLines } from "../../src/state/decision-log.js";
import { assertBuildFresh, runChild, tempDir } from "./helpers.js";

async function logFile(): Promise<string> {
	return path.join(await tempDir(), "decisions.jsonl");
}

describe("concurrent appenders", () => {
	beforeAll(assertBuildFresh);

	it("lose no line and tear none, across many rotations, with 4 processes × 250 lines", async () => {
		const file = await logFile();
		const writers = ["w0", "w1", "w2", "w3"];
		const children = writers.map((writer) => runChild("appender.mjs", [file, writer, "250", "16384", "100"]));
		for (const exit of await Promise.all(children.map((child) => child.done))) {
			expect(exit.code, exit.stderr).toBe(0);
		}
		const rotated = (await readdir(path.dirname(file))).filter((name) => /^decisions\.\d+\.jsonl$/.test(name));
		expect(rotated.length).toBeGreaterThan(3);

		const { records, skipped } = await readDecisionLines(file, { keep: 100 });
		expect(skipped).toBe(0);
		for (const writer of writers) {
			const mine = records.filter((record) => record.session === writer).map((record) => record.at);
			expect(mine).toEqual(Array.from({ length: 250 }, (_, n) => n));
		}
	}, 30_000);
});
