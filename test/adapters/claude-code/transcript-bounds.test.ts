/**
 * What a Claude Code transcript can make the Stop hook hold or redo: the last
 * reply is kept to its end (`MAX_KEPT_TEXT`), a retry rereads only a file that
 * changed, and a line past the scanner's 16 MB is never built.
 */
import { appendFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { MAX_KEPT_TEXT, readTurn } from "../../../src/adapters/claude-code/transcript.js";
import { readSettled, SCAN_DEFAULTS } from "../../../src/adapters/command-hook/turn-reader.js";
import { assistantLines, jsonl, promptLine, tempDir, text, writeTranscript } from "./helpers.js";

let dir: string;
beforeEach(async () => {
	dir = await tempDir("boulder-cc-bounds-");
});

describe("the last reply of a turn", () => {
	it("is kept to its last MAX_KEPT_TEXT characters when one message runs over many lines, and still matches the harness's copy", async () => {
		const blocks = Array.from({ length: 3000 }, (_, index) => text(`block ${index} ${"w".repeat(200)}`));
		const file = await writeTranscript(dir, [promptLine("Go."), ...assistantLines("msg_one", blocks)]);
		const whole = blocks.map((block) => block.text as string).join("\n");

		const reading = await readTurn(file, { expectLastText: whole, sleep: async () => {} });

		expect(whole.length).toBeGreaterThan(MAX_KEPT_TEXT);
		expect(reading.lastAssistantText?.length).toBeLessThanOrEqual(MAX_KEPT_TEXT + 1);
		expect(whole.endsWith(reading.lastAssistantText ?? "-")).toBe(true);
		expect(reading.lastAssistantText).toContain("block 2999 ");
		expect(reading).toMatchObject({ lastAssistantTextClipped: true, lagging: false, calls: 1 });
	});

	it("keeps a short reply whole, in file order", async () => {
		const file = await writeTranscript(dir, [
			promptLine("Go."),
			...assistantLines("msg_one", [text("first"), text("second"), text("third")]),
		]);
		expect(await readTurn(file)).toMatchObject({
			lastAssistantText: "first\nsecond\nthird",
			lastAssistantTextClipped: false,
		});
	});
});

describe("retries while the file does not end with the harness's reply", () => {
	it("read an unchanged file once, however many retries there are", async () => {
		const file = await writeTranscript(dir, [promptLine("Go."), ...assistantLines("msg_a", [text("Done.")])]);
		let reads = 0;
		const reading = await readSettled(
			async () => {
				reads++;
				return { foundStart: true, partialLastLine: false, lastAssistantText: "Done.", lagging: false };
			},
			{ expectLastText: "Something else.", retries: 4, sleep: async () => {} },
			file,
		);
		expect(reads).toBe(1);
		expect(reading.lagging).toBe(true);
	});

	it("read the file again when it changed since", async () => {
		const file = await writeTranscript(dir, [promptLine("Go."), ...assistantLines("msg_a", [text("Almost.")])]);
		const reading = await readTurn(file, {
			expectLastText: "Done.",
			sleep: async () => {
				await appendFile(file, jsonl(assistantLines("msg_b", [text("Done.")])));
			},
		});
		expect(reading).toMatchObject({ lastAssistantText: "Done.", lagging: false });
	});
});

describe("a line longer than the scanner builds", () => {
	it("stops the reading at 16 MB by default, without building the line: the turn is unseen", async () => {
		expect(SCAN_DEFAULTS.maxLineBytes).toBe(16 * 1024 * 1024);
		const file = path.join(dir, "big.jsonl");
		const big = JSON.stringify({
			type: "user",
			message: {
				role: "user",
				content: [{ type: "tool_result", tool_use_id: "t1", content: "x".repeat(17 * 1024 * 1024) }],
			},
		});
		await writeFile(file, `${jsonl([promptLine("Go.")])}${big}\n${jsonl(assistantLines("msg_a", [text("Read it.")]))}`);

		const reading = await readTurn(file);

		expect(reading).toMatchObject({ foundStart: false, limit: { kind: "line", bytes: 16 * 1024 * 1024 } });
	});
});
