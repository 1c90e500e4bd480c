/**
 * The memory store behaves like the file store on the basic operations, so
 * tests of the layers above that use it stay true of the real thing.
 */
import { writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { emptyContinuationState } from "../../src/core/turns.js";
import { FileStore } from "../../src/state/file-store.js";
import { MemoryStore } from "../../src/state/memory-store.js";
import type { Store } from "../../src/state/store.js";
import { emptyWorksFile } from "../../src/state/works.js";
import { decision, fixedClock, tempDir } from "./helpers.js";

/** Plays the same operations on a store and returns what it saw, free of paths. */
async function transcript(store: Store, spoilScope: (key: string) => Promise<void>): Promise<unknown[]> {
	const seen: unknown[] = [];
	const note = (value: unknown) => seen.push(structuredClone(value));

	note(await store.readScope("scope-a"));
	note(
		await store.updateScope("scope-a", (current) => ({
			result: current.kind,
			next: { ...emptyContinuationState(), seq: 1 },
		})),
	);
	note(await store.readScope("scope-a"));
	note(
		await store.updateScope("scope-a", (current) => ({
			result: current.kind === "ok" && current.value.seq,
			next: null,
		})),
	);
	note(await store.readScope("scope-a"));

	const read = await store.readScope("scope-a");
	if (read.kind === "ok") read.value.seq = 99;
	note(await store.readScope("scope-a"));

	note(await store.readWorks());
	note(
		await store.updateWorks(() => ({ result: "set", next: { ...emptyWorksFile(), stopped: { at: 5, by: "user" } } })),
	);
	note(await store.readWorks());

	for (let n = 0; n < 6; n++) await store.appendDecision(decision({ at: n, session: n % 3 === 0 ? "s-a" : "s-b" }));
	note(await store.readDecisions());
	note(await store.readDecisions({ session: "s-a" }));
	note(await store.readDecisions({ session: "s-b", limit: 2 }));
	note(await store.readDecisions({ session: "nobody" }));

	note(await errorCode(store.readScope("../escape")));
	note(
		await errorCode(
			store.updateScope("scope-a", () => ({ result: null, next: { ...emptyContinuationState(), seq: -1 } })),
		),
	);
	note(await errorCode(store.appendDecision({ ...decision(), v: 2 } as never)));
	note(await store.readScope("scope-a"));

	note([...((await store.scopeKeys?.()) ?? ["no listing"])].sort());
	await spoilScope("scope-b");
	note([...((await store.scopeKeys?.()) ?? ["no listing"])].sort());
	const spoiled = await store.readScope("scope-b");
	note(spoiled.kind);
	note((await store.readScope("scope-b")).kind);
	note((await store.problems()).map((problem) => problem.reason.split(":")[0]));
	return seen;
}

async function errorCode(promise: Promise<unknown>): Promise<string> {
	try {
		await promise;
		return "no error";
	} catch (error) {
		return (error as { code?: string }).code ?? "no code";
	}
}

describe("MemoryStore and FileStore", () => {
	it("see the same results for the same operations", async () => {
		const fileStore = new FileStore(await tempDir(), { clock: fixedClock() });
		const fileSeen = await transcript(fileStore, async (key) => {
			await fileStore.updateScope(key, () => ({ result: null, next: emptyContinuationState() }));
			await writeFile(fileStore.scopeFile(key), "{ torn");
		});
		const memoryStore = new MemoryStore("/memory", { clock: fixedClock() });
		const memorySeen = await transcript(memoryStore, async (key) => memoryStore.spoil({ scope: key }));

		// The file store also logs the bad file as an event; the memory store keeps no such line.
		expect(memorySeen).toEqual(fileSeen);
		expect(fileSeen).toContainEqual(["scope-a", "scope-b"]);
	});
});
