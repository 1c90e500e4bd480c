/**
 * The scope state gained `observed.transcriptPath` (optional, schema v1 as
 * before): a file written before it reads as it was, and one written with it
 * keeps it.
 */
import { copyFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { scopeKey } from "../../src/core/scope-key.js";
import { emptyContinuationState } from "../../src/core/turns.js";
import { FileStore } from "../../src/state/file-store.js";
import { fixedClock, fixturesDir, tempDir } from "./helpers.js";

const SCOPE = scopeKey({ kind: "session", harness: "claude-code", sessionId: "s1" }) as string;

describe("a scope state's transcript path", () => {
	it("is absent from a file written before it, which still reads whole", async () => {
		const store = new FileStore(await tempDir(), { clock: fixedClock() });
		await mkdir(path.dirname(store.scopeFile(SCOPE)), { recursive: true });
		await copyFile(path.join(fixturesDir, "scope-v1-before-transcript.json"), store.scopeFile(SCOPE));

		const read = await store.readScope(SCOPE);

		expect(read.kind).toBe("ok");
		if (read.kind !== "ok") return;
		expect(read.value.observed.transcriptPath).toBeUndefined();
		expect(read.value.lastDecision?.reason).toBe("continue");
		expect(read.value.todos).toEqual([{ content: "Write the parser", status: "in_progress" }]);
	});

	it("is kept when written", async () => {
		const store = new FileStore(await tempDir(), { clock: fixedClock() });
		const base = emptyContinuationState();
		const transcriptPath = "/home/jo/.claude/projects/-w/s1.jsonl";
		await store.updateScope(SCOPE, () => ({
			result: undefined,
			next: { ...base, observed: { ...base.observed, transcriptPath } },
		}));

		const read = await store.readScope(SCOPE);

		expect(read.kind === "ok" && read.value.observed.transcriptPath).toBe(transcriptPath);
	});
});
