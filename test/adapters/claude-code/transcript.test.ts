import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { appendFile, readFile, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { CLAUDE_CODE } from "../../../src/adapters/claude-code/events.js";
import { analyseTurn, isTurnStart, readTurn } from "../../../src/adapters/claude-code/transcript.js";
import {
	scanTurn,
	unreadableTranscriptReason,
	unseenTurnReason as unseenReason,
} from "../../../src/adapters/command-hook/turn-reader.js";
import { FileProblem } from "../../../src/engine/bounded-read.js";
import { makeFifo } from "../../support/fifo.js";
import {
	assistantLines,
	interruptLine,
	jsonl,
	promptLine,
	stopFeedbackLine,
	tempDir,
	text,
	toolResultLine,
	toolUse,
	writeTranscript,
} from "./helpers.js";

const posix = process.platform !== "win32";

let dir: string;

beforeEach(async () => {
	dir = await tempDir("boulder-transcript-");
});

/** An earlier turn, so tests can tell that it is not counted. */
function earlierTurn(): Record<string, unknown>[] {
	return [
		promptLine("Start the work."),
		...assistantLines("msg_old", [text("Working."), toolUse("toolu_old", "Bash")], {
			input_tokens: 9000,
			output_tokens: 900,
		}),
		toolResultLine("toolu_old"),
		...assistantLines("msg_old_end", [text("Done for now.")], { input_tokens: 9000, output_tokens: 900 }),
	];
}

describe("real spend of the current turn", () => {
	it("counts each message id once although every content-block line repeats its usage", async () => {
		const file = await writeTranscript(dir, [
			...earlierTurn(),
			promptLine("Carry on."),
			...assistantLines("msg_a", [text("Looking."), toolUse("t1", "Read"), toolUse("t2", "Read")], {
				input_tokens: 1000,
				output_tokens: 50,
				cache_creation_input_tokens: 7,
				cache_read_input_tokens: 40000,
			}),
			toolResultLine("t1"),
			toolResultLine("t2"),
			...assistantLines("msg_b", [text("Done.")], { input_tokens: 2000, output_tokens: 60 }),
		]);

		const turn = await readTurn(file);

		expect(turn.spend).toEqual({ input: 3000, output: 110, cacheWrite: 7 });
		expect(turn.calls).toBe(2);
		expect(turn.foundStart).toBe(true);
	});

	it("starts a continuation's turn at the Stop hook feedback, so the turn before is not counted again", async () => {
		const file = await writeTranscript(dir, [
			...earlierTurn(),
			stopFeedbackLine("[boulder · automatic continuation — not written by the user]"),
			{ type: "attachment", attachment: { type: "hook_blocking_error", hookEvent: "Stop" } },
			...assistantLines("msg_c", [text("Continuing.")], { input_tokens: 300, output_tokens: 30 }),
		]);

		const turn = await readTurn(file);

		expect(turn.spend).toEqual({ input: 300, output: 30, cacheWrite: 0 });
	});

	it("keeps the largest usage seen for a message when its lines disagree (an early streamed copy)", () => {
		const [first, second] = assistantLines("msg_a", [text("a"), text("b")], { input_tokens: 500, output_tokens: 1 });
		const later = {
			...second,
			message: { ...(second?.message as object), usage: { input_tokens: 500, output_tokens: 80 } },
		};

		const turn = analyseTurn([promptLine("Go."), first as Record<string, unknown>, later]);

		expect(turn.spend).toEqual({ input: 500, output: 80, cacheWrite: 0 });
	});

	it("ignores a subagent's sidechain lines written into the parent's transcript", () => {
		const sidechain = assistantLines("msg_side", [text("sub")], { input_tokens: 7777 }).map((line) => ({
			...line,
			isSidechain: true,
		}));

		const turn = analyseTurn([promptLine("Go."), ...sidechain, ...assistantLines("msg_main", [text("main")])]);

		expect(turn.spend.input).toBe(100);
	});
});

describe("a transcript still being written", () => {
	it("leaves out a last line cut short, and says so", async () => {
		const lines = [promptLine("Go."), ...assistantLines("msg_a", [text("Done.")], { input_tokens: 10 })];
		const partial = JSON.stringify(assistantLines("msg_b", [text("Half")])[0]).slice(0, 60);
		const file = await writeTranscript(dir, lines, partial);

		const turn = await readTurn(file, { retries: 0 });

		expect(turn.partialLastLine).toBe(true);
		expect(turn.spend.input).toBe(10);
		expect(turn.skippedLines).toBe(0);
	});

	it("reads again while the file lags behind the reply the harness reported, and catches up", async () => {
		const file = await writeTranscript(dir, [promptLine("Go."), ...assistantLines("msg_a", [text("Working.")])]);
		const late = assistantLines("msg_b", [text("All done here.")], { input_tokens: 500 });
		let waits = 0;

		const turn = await readTurn(file, {
			expectLastText: "All done here.",
			sleep: async () => {
				waits++;
				if (waits === 2) await appendFile(file, jsonl(late));
			},
		});

		expect(waits).toBe(2);
		expect(turn.lagging).toBe(false);
		expect(turn.spend.input).toBe(600);
		expect(turn.lastAssistantText).toBe("All done here.");
	});

	it("gives up after the retries and says the file lags, with what it could read", async () => {
		const file = await writeTranscript(dir, [promptLine("Go."), ...assistantLines("msg_a", [text("Working.")])]);
		let waits = 0;

		const turn = await readTurn(file, {
			expectLastText: "Something never written.",
			retries: 3,
			sleep: async () => {
				waits++;
			},
		});

		expect(waits).toBe(3);
		expect(turn.lagging).toBe(true);
		expect(turn.spend.input).toBe(100);
	});

	it("does not wait when the file already ends with the reported reply, whitespace aside", async () => {
		const file = await writeTranscript(dir, [
			promptLine("Go."),
			...assistantLines("msg_a", [text("First part."), text("Second  part.")]),
		]);
		let waits = 0;

		const turn = await readTurn(file, {
			expectLastText: "First part.\n\nSecond part.",
			sleep: async () => {
				waits++;
			},
		});

		expect(waits).toBe(0);
		expect(turn.lagging).toBe(false);
	});

	it("skips and counts a corrupt line inside the turn", async () => {
		const good = jsonl([promptLine("Go."), ...assistantLines("msg_a", [text("x")])]);
		const file = path.join(dir, "t.jsonl");
		await writeFile(file, `${good}{not json\n${jsonl(assistantLines("msg_b", [text("y")]))}`);

		const turn = await readTurn(file);

		expect(turn.skippedLines).toBe(1);
		expect(turn.calls).toBe(2);
	});
});

describe("reading only the tail", () => {
	it("finds the turn's start across many small chunks and never reads the earlier turns", async () => {
		const filler = "x".repeat(2000);
		const early: Record<string, unknown>[] = [];
		for (let index = 0; index < 300; index++) {
			early.push(promptLine(`turn ${index}`), ...assistantLines(`msg_${index}`, [text(filler)]));
		}
		const last = [promptLine("Last turn."), ...assistantLines("msg_last", [text("Done.")], { input_tokens: 42 })];
		const file = path.join(dir, "big.jsonl");
		// Garbage early on: reading it would count skipped lines.
		await writeFile(file, `{garbage\n${jsonl(early)}${jsonl(last)}`);
		expect((await readFile(file)).length).toBeGreaterThan(600_000);

		let parsed = 0;
		await scanTurn(file, { chunkBytes: 333 }, (line) => {
			parsed++;
			return isTurnStart(line);
		});
		const turn = await readTurn(file, { chunkBytes: 333 });

		expect(parsed).toBe(2);
		expect(turn.skippedLines).toBe(0);
		expect(turn.spend.input).toBe(42);
	});

	it("stops at maxBytes and says the turn's start was not found", async () => {
		const lines = [
			promptLine("Start."),
			...Array.from({ length: 50 }, (_, index) => assistantLines(`msg_${index}`, [text("y".repeat(500))])).flat(),
		];
		const file = await writeTranscript(dir, lines);

		const turn = await readTurn(file, { maxBytes: 4096, chunkBytes: 1024 });

		expect(turn.foundStart).toBe(false);
		expect(turn.limit).toEqual({ kind: "bytes", bytes: 4096 });
		expect(turn.calls).toBeGreaterThan(0);
		expect(turn.calls).toBeLessThan(50);
	});

	it("handles multi-byte text split across chunk boundaries", async () => {
		const file = await writeTranscript(dir, [
			promptLine("Go."),
			...assistantLines("msg_a", [text("héllo — 日本語 ✓ ".repeat(50))]),
		]);

		const turn = await readTurn(file, { chunkBytes: 7 });

		expect(turn.lastAssistantText).toContain("日本語 ✓");
	});

	it("reads an empty file as an empty turn", async () => {
		const file = path.join(dir, "empty.jsonl");
		await writeFile(file, "");

		const turn = await readTurn(file);

		expect(turn).toMatchObject({ calls: 0, foundStart: false, interrupt: null, lastAssistantText: null });
	});

	it("rejects when the transcript does not exist", async () => {
		await expect(readTurn(path.join(dir, "missing.jsonl"))).rejects.toMatchObject({ kind: "missing" });
	});
});

describe("what happened in the turn", () => {
	it("sees an interrupt by the user after the turn began, with its time", () => {
		const at = Date.UTC(2026, 10, 30, 10, 0, 0);
		const turn = analyseTurn([
			promptLine("Go."),
			...assistantLines("msg_a", [toolUse("t1", "Bash", { command: "sleep 100" })]),
			toolResultLine("t1", "The user doesn't want to proceed with this tool use."),
			interruptLine(at),
		]);

		expect(turn.interrupt).toEqual({ at });
	});

	it("names the turn by the line that began it, so two reports of one turn's end match", () => {
		const start = { ...promptLine("Go."), uuid: "line-1" };
		const turn = analyseTurn([start, ...assistantLines("msg_a", [text("Done.")])]);
		expect(turn.startMarker).toBe("line-1");
		const unknownStart = analyseTurn(assistantLines("msg_a", [text("Done.")]), {
			foundStart: false,
			partialLastLine: false,
			skippedLines: 0,
		});
		expect(unknownStart.startMarker).toBeNull();
	});

	it("sees no interrupt in an ordinary turn", () => {
		const turn = analyseTurn([promptLine("Go."), ...assistantLines("msg_a", [text("Done.")])]);

		expect(turn.interrupt).toBeNull();
	});

	it("sees a question to the user that has no answer yet", () => {
		const turn = analyseTurn([
			promptLine("Go."),
			...assistantLines("msg_a", [
				toolUse("q1", "AskUserQuestion", { questions: [{ question: "Postgres or SQLite?", header: "DB" }] }),
			]),
		]);

		expect(turn.pendingQuestion).toBe("Postgres or SQLite?");
	});

	it("does not count an answered question as pending", () => {
		const turn = analyseTurn([
			promptLine("Go."),
			...assistantLines("msg_a", [toolUse("q1", "AskUserQuestion", { questions: [] })]),
			toolResultLine("q1", "User chose SQLite"),
		]);

		expect(turn.pendingQuestion).toBeNull();
	});

	it("counts file edits as activity, and not commands, reads or list updates", () => {
		const turn = analyseTurn([
			promptLine("Go."),
			...assistantLines("msg_a", [
				toolUse("1", "Edit"),
				toolUse("2", "Write"),
				toolUse("3", "Bash"),
				toolUse("4", "Read"),
				toolUse("5", "Grep"),
				toolUse("6", "TodoWrite"),
			]),
		]);

		expect(turn.activity).toBe(2);
	});

	it("gives the text of the last assistant message only", () => {
		const turn = analyseTurn([
			promptLine("Go."),
			...assistantLines("msg_a", [text("Earlier words.")]),
			...assistantLines("msg_b", [text("Which option should I take?"), toolUse("x", "Read")]),
		]);

		expect(turn.lastAssistantText).toBe("Which option should I take?");
	});
});

describe("where a turn begins", () => {
	it("at a prompt, typed or sent by an SDK, and at a slash command", () => {
		expect(isTurnStart(promptLine("Do the work."))).toBe(true);
		expect(
			isTurnStart(
				promptLine("<command-message>boulder:why</command-message>\n<command-name>/boulder:why</command-name>"),
			),
		).toBe(true);
		expect(
			isTurnStart({ type: "user", message: { role: "user", content: [text("Look at this"), { type: "image" }] } }),
		).toBe(true);
	});

	it("at a prompt of blocks with no text or blank text, but not at such a line marked meta", () => {
		const blocks = (content: unknown[], extra = {}) => ({ type: "user", message: { role: "user", content }, ...extra });
		expect(isTurnStart(blocks([{ type: "image" }]))).toBe(true);
		expect(isTurnStart(blocks([text(" "), text("\n")]))).toBe(true);
		expect(isTurnStart(blocks([text(" ")], { isMeta: true }))).toBe(false);
	});

	it("at a Stop hook's feedback or additional context", () => {
		expect(isTurnStart(stopFeedbackLine("keep going"))).toBe(true);
		expect(
			isTurnStart({
				type: "user",
				isMeta: true,
				message: {
					role: "user",
					content: "<system-reminder>\nStop hook additional context: go on\n</system-reminder>",
				},
			}),
		).toBe(true);
	});

	it("not at tool results, interrupt notices, compaction summaries, command expansions or assistant lines", () => {
		expect(isTurnStart(toolResultLine("t1"))).toBe(false);
		expect(isTurnStart(interruptLine())).toBe(false);
		expect(isTurnStart({ ...promptLine("This session is being continued…"), isCompactSummary: true })).toBe(false);
		expect(isTurnStart({ ...promptLine("Output of boulder: …"), isMeta: true })).toBe(false);
		expect(isTurnStart(assistantLines("m", [text("hi")])[0] as Record<string, unknown>)).toBe(false);
		expect(isTurnStart({ type: "attachment", attachment: {} })).toBe(false);
	});
});

describe("a turn that began far back", () => {
	it("is read back to its start, past any fixed window: a turn that began 20 MB before the end", async () => {
		const filler = "w".repeat(4000);
		const calls = 5000;
		const turn: Record<string, unknown>[] = [promptLine("Run the whole migration.")];
		for (let index = 0; index < calls; index++) {
			turn.push(
				...assistantLines(`msg_${index}`, [text(filler)], {
					input_tokens: 3,
					output_tokens: 2,
					cache_creation_input_tokens: 1,
					cache_read_input_tokens: 90_000,
				}),
			);
		}
		const file = path.join(dir, "long-turn.jsonl");
		// Garbage before the turn: reading past its start would count a skipped line.
		await writeFile(file, `{garbage\n${jsonl(earlierTurn())}${jsonl(turn)}`);
		expect((await stat(file)).size).toBeGreaterThan(20 * 1024 * 1024);

		const reading = await readTurn(file);

		expect(reading).toMatchObject({ foundStart: true, limit: null, calls, skippedLines: 0 });
		expect(reading.spend).toEqual({ input: 3 * calls, output: 2 * calls, cacheWrite: calls });
		expect(reading.startMarker).toBe(turn[0]?.uuid);
	});

	it("is not seen when it began further back than maxBytes, and the reading says which limit stopped it", async () => {
		const file = await writeTranscript(dir, [
			promptLine("Start."),
			...Array.from({ length: 40 }, (_, index) => assistantLines(`msg_${index}`, [text("z".repeat(1000))])).flat(),
		]);

		const reading = await readTurn(file, { maxBytes: 10_000, chunkBytes: 999 });

		expect(reading).toMatchObject({ foundStart: false, startMarker: null, limit: { kind: "bytes", bytes: 10_000 } });
	});
});

describe("chunks that cut lines and characters", () => {
	/** Several turns with an interrupt, a pending question and text in one-, two-, three- and four-byte characters. */
	async function mixedTranscript(): Promise<string> {
		return writeTranscript(dir, [
			...earlierTurn(),
			promptLine("Écris le module — 日本語で 🙂"),
			...assistantLines("msg_a", [text("Je commence: ünïcødé ✓ 🚀🚀"), toolUse("t1", "Edit")], {
				input_tokens: 120,
				output_tokens: 7,
				cache_creation_input_tokens: 3,
			}),
			toolResultLine("t1", "fichier modifié ✓"),
			interruptLine(),
			...assistantLines("msg_b", [
				text("Quelle base? 🤔 データベース"),
				toolUse("q1", "AskUserQuestion", { questions: [{ question: "Postgres ou SQLite? 🐘" }] }),
			]),
		]);
	}

	it("reads the same turn at every chunk size, whatever line a chunk begins inside (a torn first line)", async () => {
		const file = await mixedTranscript();
		const whole = await readTurn(file, { chunkBytes: 1024 * 1024 });
		expect(whole).toMatchObject({ foundStart: true, calls: 2, activity: 1, pendingQuestion: "Postgres ou SQLite? 🐘" });
		expect(whole.interrupt).not.toBeNull();

		for (let chunkBytes = 1; chunkBytes <= 300; chunkBytes++) {
			expect(await readTurn(file, { chunkBytes }), `chunkBytes ${chunkBytes}`).toEqual(whole);
		}
	});

	it("decodes characters whose bytes fall into two chunks", async () => {
		const reply = "🙂 é 日本 ".repeat(40);
		const file = await writeTranscript(dir, [promptLine("Go."), ...assistantLines("msg_a", [text(reply)])]);
		const bytes = await readFile(file);
		let splitCharacters = 0;

		for (let chunkBytes = 2; chunkBytes <= 64; chunkBytes++) {
			for (let boundary = bytes.length - chunkBytes; boundary > 0; boundary -= chunkBytes) {
				// A UTF-8 continuation byte right after a boundary: that character is split.
				if (((bytes[boundary] ?? 0) & 0xc0) === 0x80) splitCharacters++;
			}
			expect((await readTurn(file, { chunkBytes })).lastAssistantText, `chunkBytes ${chunkBytes}`).toBe(reply);
		}
		expect(splitCharacters).toBeGreaterThan(100);
	});

	it("reads a line many chunks long whole", async () => {
		const reply = `${"long line ".repeat(20_000)}end`;
		const file = await writeTranscript(dir, [promptLine("Go."), ...assistantLines("msg_a", [text(reply)])]);

		const reading = await readTurn(file, { chunkBytes: 1000 });

		expect(reading.lastAssistantText).toBe(reply);
		expect(reading.foundStart).toBe(true);
	});

	it("stops at a line longer than maxLineBytes instead of building it, and says so", async () => {
		const file = await writeTranscript(dir, [
			promptLine("Go."),
			...assistantLines("msg_a", [text("x".repeat(50_000))]),
			...assistantLines("msg_b", [text("Done.")]),
		]);

		const reading = await readTurn(file, { chunkBytes: 4096, maxLineBytes: 10_000 });

		expect(reading).toMatchObject({ foundStart: false, limit: { kind: "line", bytes: 10_000 }, calls: 1 });
	});
});

describe("files that are not transcripts", () => {
	it.runIf(posix)("refuses a FIFO at once instead of waiting for a writer", async () => {
		const file = path.join(dir, "f.jsonl");
		makeFifo(file);

		await expect(readTurn(file)).rejects.toMatchObject({
			kind: "not-regular",
			reason: expect.stringContaining("FIFO"),
		});
	});

	it.runIf(posix && existsSync("/dev/zero"))("refuses a device and a link to one, and a folder", async () => {
		await symlink("/dev/zero", path.join(dir, "zero.jsonl"));

		await expect(readTurn("/dev/zero")).rejects.toMatchObject({ kind: "not-regular" });
		await expect(readTurn(path.join(dir, "zero.jsonl"))).rejects.toMatchObject({ kind: "not-regular" });
		await expect(readTurn(dir)).rejects.toMatchObject({
			kind: "not-regular",
			reason: expect.stringContaining("folder"),
		});
	});

	it("finds no turn in random bytes, and does not read them again while waiting for the reported reply", async () => {
		const file = path.join(dir, "random.jsonl");
		await writeFile(file, randomBytes(100_000));
		let waits = 0;

		const reading = await readTurn(file, {
			expectLastText: "Done.",
			sleep: async () => {
				waits++;
			},
		});

		expect(reading).toMatchObject({ foundStart: false, calls: 0, limit: null });
		expect(reading.skippedLines + (reading.partialLastLine ? 1 : 0)).toBeGreaterThan(0);
		expect(waits).toBe(0);
	});
});

describe("saying why a turn cannot be seen", () => {
	it("names the file and what is wrong, in one line", () => {
		const unreadableReason = (file: string | null, error: unknown) =>
			unreadableTranscriptReason(CLAUDE_CODE.title, file, error);
		const file = "/t/s.jsonl";
		const seen = analyseTurn([promptLine("Go.")]);
		expect(unseenReason(file, seen)).toBeNull();
		expect(unseenReason(file, { ...seen, foundStart: false, skippedLines: 2 })).toBe(
			"no line of the transcript /t/s.jsonl begins the current turn (2 of its lines are not JSON)",
		);
		expect(unseenReason(file, { ...seen, foundStart: false, limit: { kind: "bytes", bytes: 256 * 1024 * 1024 } })).toBe(
			"the current turn began more than 256 MB before the end of the transcript /t/s.jsonl, further back than boulder reads",
		);
		expect(unreadableReason(null, null)).toBe("Claude Code gave no transcript_path");
		expect(unreadableReason(file, new FileProblem(file, "missing", "it does not exist"))).toBe(
			"the transcript /t/s.jsonl does not exist",
		);
		expect(
			unreadableReason(file, new FileProblem(file, "not-regular", "it is a FIFO (named pipe), not a regular file")),
		).toBe("cannot read the transcript /t/s.jsonl: it is a FIFO (named pipe), not a regular file");
	});
});
