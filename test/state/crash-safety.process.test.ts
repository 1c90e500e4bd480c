/**
 * A writer killed with SIGKILL at random moments never leaves a torn state
 * file: each file holds a whole version, the last one acknowledged or the
 * one in flight, and leftovers are only recognisable temp files.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { isTempFileName } from "../../src/state/atomic-write.js";
import { seeded } from "../support/seeded.js";
import { assertBuildFresh, runChild, tempDir } from "./helpers.js";

const FILES = 3;
const WRITES_PER_ROUND = 600;
const ROUNDS = 6;

interface Version {
	file: number;
	i: number;
	payload: string;
	hash: string;
}

function parseWhole(text: string): Version {
	const parsed = JSON.parse(text) as Version;
	const { hash, ...body } = parsed;
	expect(createHash("sha256").update(JSON.stringify(body)).digest("hex")).toBe(hash);
	return parsed;
}

describe("crash safety of atomic writes", () => {
	beforeAll(assertBuildFresh);

	it("leaves every file whole (old or new) after SIGKILL at random moments, over several rounds", async () => {
		const { random, replay } = seeded("crash-safety");
		const dir = await tempDir();
		/** Per file, the newest index the writer reported done. */
		const acked = new Map<number, number>();
		let next = 0;
		let kills = 0;
		for (let round = 0; round < ROUNDS; round++) {
			// The last round runs to the end, so at least one child does all its writes.
			const killAfter = round === ROUNDS - 1 ? Number.POSITIVE_INFINITY : 20 + Math.floor(random() * 560);
			let seen = 0;
			const child = runChild(
				"atomic-writer.mjs",
				[dir, String(next), String(WRITES_PER_ROUND), String(FILES)],
				(_line, self) => {
					seen++;
					if (seen === killAfter) {
						// A little jitter so the kill lands anywhere inside the next write.
						setTimeout(() => self.process.kill("SIGKILL"), random() * 3);
					}
				},
			);
			const exit = await child.done;
			if (Number.isFinite(killAfter)) {
				expect(exit.signal, replay).toBe("SIGKILL");
				kills++;
			} else {
				expect(exit.code, exit.stderr).toBe(0);
			}
			const done = child.lines.map(Number);
			for (const i of done) acked.set(i % FILES, i);
			const lastDone = done.length > 0 ? (done.at(-1) as number) : next - 1;

			const names = await readdir(dir);
			for (const name of names) {
				if (/^state-\d\.json$/.test(name)) continue;
				expect(isTempFileName(name), `unexpected file ${name}`).toBe(true);
			}
			let newest = -1;
			for (let file = 0; file < FILES; file++) {
				const name = `state-${file}.json`;
				if (!names.includes(name)) {
					expect(acked.has(file), `${name} vanished after it was written`).toBe(false);
					continue;
				}
				const version = parseWhole(await readFile(path.join(dir, name), "utf8"));
				expect(version.file).toBe(file);
				expect(version.i % FILES).toBe(file);
				// Never older than what was acknowledged, never newer than the write in flight.
				expect(version.i).toBeGreaterThanOrEqual(acked.get(file) ?? -1);
				expect(version.i).toBeLessThanOrEqual(lastDone + 1);
				newest = Math.max(newest, version.i);
			}
			next = Math.max(newest, lastDone) + 1;
		}
		expect(kills).toBe(ROUNDS - 1);
		expect(next).toBeGreaterThanOrEqual(WRITES_PER_ROUND);
	}, 60_000);
});
