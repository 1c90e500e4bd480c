/**
 * SIGKILL in the middle of writes of every kind of state boulder keeps, as
 * the store writes them: the scope state file, the works file, the decision
 * log. After each kill the state reads whole and holds every write that was
 * acknowledged (never older, never beyond the write in flight), the log holds
 * every acknowledged record exactly once (a torn last line is skipped and
 * counted, never glued to the next), nothing was moved aside as unreadable,
 * and the next writer carries on from there.
 *
 * Counts: `test/fuzz/scale.ts` (a few kills per kind in `npm test`, 500 per
 * kind under `npm run fuzz`).
 */
import { readdir, utimes } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { isTempFileName } from "../../src/state/atomic-write.js";
import { readDecisionLines } from "../../src/state/decision-log.js";
import { FileStore } from "../../src/state/file-store.js";
import { parseAsideName } from "../../src/state/versioned-file.js";
import { FULL, scaled } from "../fuzz/scale.js";
import { seeded } from "../support/seeded.js";
import { assertBuildFresh, runChild, tempDir } from "./helpers.js";

const KILLS = scaled(6, 500);
/** Rotated decision logs kept: enough that rotation never drops a record this test wrote. */
const KEEP = 1_000;

type Kind = "scope" | "works" | "log";

interface Tally {
	kills: number;
	/** Kills that landed while a write was in flight (its start printed, its end not). */
	inFlight: number;
	/** In-flight writes that nonetheless reached the disk whole before the kill. */
	landed: number;
	/** Temp files a kill left behind (between the temp write and the rename). */
	tempLeft: number;
	unreadable: number;
	lost: number;
	tornLines: number;
}

/** Ages the lock folders a killed writer left, so the next writer takes them over at once instead of after the stale time. */
async function ageLocks(dir: string): Promise<void> {
	const long = new Date(Date.now() - 60_000);
	for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])) {
		if (entry.isDirectory() && entry.name.endsWith(".lock")) {
			await utimes(path.join(entry.parentPath, entry.name), long, long).catch(() => undefined);
		}
	}
}

/** Names in boulder's folders that are neither its files, its temp files nor its locks. */
async function strayNames(dir: string): Promise<string[]> {
	const out: string[] = [];
	for (const folder of [path.join(dir, ".boulder"), path.join(dir, ".boulder", "scopes")]) {
		for (const name of await readdir(folder).catch(() => [])) {
			if (parseAsideName(name) !== null) out.push(`${name} (moved aside)`);
		}
	}
	return out;
}

async function tempFiles(dir: string): Promise<number> {
	let count = 0;
	for (const folder of [path.join(dir, ".boulder"), path.join(dir, ".boulder", "scopes")]) {
		count += (await readdir(folder).catch(() => [])).filter(isTempFileName).length;
	}
	return count;
}

/** The numbered value the state holds now (null: no state yet), or "unreadable". */
async function current(kind: Exclude<Kind, "log">, dir: string): Promise<number | null | "unreadable"> {
	const store = new FileStore(dir);
	const read = kind === "scope" ? await store.readScope("crash-scope") : await store.readWorks();
	if (read.kind === "missing") return null;
	if (read.kind === "unreadable") return "unreadable";
	return "seq" in read.value ? read.value.seq : (read.value.stopped?.at ?? null);
}

async function crashKind(kind: Kind): Promise<Tally> {
	const { random } = seeded(`crash-kinds ${kind}`);
	const dir = await tempDir(`boulder-crash-${kind}-`);
	const tally: Tally = { kills: 0, inFlight: 0, landed: 0, tempLeft: 0, unreadable: 0, lost: 0, tornLines: 0 };
	const acked: number[] = [];
	let next = 0;
	let temps = 0;
	for (let round = 0; round < KILLS; round++) {
		// Kill inside one of the next few writes, a little after it began.
		const target = next + Math.floor(random() * 3);
		const child = runChild("store-writer.mjs", [kind, dir, String(next), "1000", String(KEEP)], (line, self) => {
			if (line === `w ${target}`) setTimeout(() => self.process.kill("SIGKILL"), random() * 6);
		});
		const exit = await child.done;
		expect(exit.signal, exit.stderr).toBe("SIGKILL");
		tally.kills++;
		const done = child.lines.filter((line) => line.startsWith("d ")).map((line) => Number(line.slice(2)));
		const started = child.lines.filter((line) => line.startsWith("w ")).map((line) => Number(line.slice(2)));
		acked.push(...done);
		const lastDone = acked.at(-1) ?? -1;
		const lastStarted = started.at(-1) ?? next - 1;
		if (lastStarted > (done.at(-1) ?? -1)) tally.inFlight++;

		if (kind === "log") {
			const { records, skipped } = await readDecisionLines(path.join(dir, ".boulder", "decisions.jsonl"), {
				keep: KEEP,
			});
			const seen = records.map((record) => record.at);
			const counts = new Map<number, number>();
			for (const at of seen) counts.set(at, (counts.get(at) ?? 0) + 1);
			tally.lost = acked.filter((at) => counts.get(at) !== 1).length;
			expect(tally.lost, `records lost or doubled after kill ${round}`).toBe(0);
			expect(Math.max(-1, ...seen)).toBeLessThanOrEqual(lastStarted);
			if (counts.has(lastStarted) && lastStarted > (done.at(-1) ?? -1)) tally.landed++;
			tally.tornLines = skipped;
			expect(skipped, "torn lines: at most one per kill").toBeLessThanOrEqual(tally.kills);
			next = Math.max(lastStarted, ...seen) + 1;
		} else {
			const value = await current(kind, dir);
			if (value === "unreadable") tally.unreadable++;
			expect(value, `the ${kind} state after kill ${round}`).not.toBe("unreadable");
			if (acked.length > 0) {
				expect(value, `the ${kind} state after kill ${round}`).not.toBeNull();
				// Never older than what was acknowledged, never newer than the write in flight.
				if ((value as number) < lastDone) tally.lost++;
				expect(value as number).toBeGreaterThanOrEqual(lastDone);
				expect(value as number).toBeLessThanOrEqual(lastStarted);
				if (value === lastStarted && lastStarted > (done.at(-1) ?? -1)) tally.landed++;
			}
			next = Math.max(typeof value === "number" ? value : -1, lastStarted) + 1;
		}
		expect(await strayNames(dir)).toEqual([]);
		const nowTemps = await tempFiles(dir);
		tally.tempLeft += Math.max(0, nowTemps - temps);
		temps = nowTemps;
		await ageLocks(dir);
	}
	// After every kill, a writer still runs to the end and its last write is what is read.
	const last = runChild("store-writer.mjs", [kind, dir, String(next), "3", String(KEEP)]);
	const exit = await last.done;
	expect(exit.code, exit.stderr).toBe(0);
	if (kind === "log") {
		const { records } = await readDecisionLines(path.join(dir, ".boulder", "decisions.jsonl"), { keep: KEEP });
		expect(records.at(-1)?.at).toBe(next + 2);
	} else {
		expect(await current(kind, dir)).toBe(next + 2);
	}
	return tally;
}

describe("crash safety of every kind of state", () => {
	beforeAll(assertBuildFresh);

	it(
		`keeps the scope state, the works file and the decision log whole through ${KILLS} kills each`,
		async () => {
			const kinds: Kind[] = ["scope", "works", "log"];
			const tallies = await Promise.all(kinds.map((kind) => crashKind(kind)));
			const text = kinds.map((kind, n) => `${kind}: ${JSON.stringify(tallies[n])}`).join("\n");
			console.log(`${FULL ? "full counts\n" : ""}${text}`);
			for (const tally of tallies) {
				expect(tally.kills).toBe(KILLS);
				expect(tally.unreadable).toBe(0);
				expect(tally.lost).toBe(0);
				// Not vacuous: kills land inside writes.
				expect(tally.inFlight, text).toBeGreaterThan(0);
			}
		},
		FULL ? 3 * 60 * 60 * 1000 : 120_000,
	);
});
