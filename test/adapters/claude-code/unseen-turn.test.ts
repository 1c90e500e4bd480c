/**
 * Transcripts boulder cannot see through, read for real: a Stop whose turn
 * the transcript does not show lets the agent stop and says why in one
 * decision.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { handleHook } from "../../../src/adapters/claude-code/events.js";
import { readTurn } from "../../../src/adapters/claude-code/transcript.js";
import type { HookAnswer } from "../../../src/adapters/shared/hook-answer.js";
import type { Engine } from "../../../src/engine/engine.js";
import type { MemoryStore } from "../../../src/state/memory-store.js";
import { makeFifo } from "../../support/fifo.js";
import {
	assistantLines,
	hookInput,
	memoryEngine,
	promptLine,
	tempDir,
	text,
	tick,
	writeTranscript,
} from "./helpers.js";

const posix = process.platform !== "win32";

let dir: string;
let engine: Engine;
let store: MemoryStore;

beforeEach(async () => {
	dir = await tempDir("boulder-unseen-");
	({ engine, store } = memoryEngine());
});

async function send(event: string, fields: Record<string, unknown>): Promise<HookAnswer> {
	tick(1000);
	return handleHook(hookInput(event, fields), { engine, readTurn: (file, options) => readTurn(file, options) });
}

/** A user prompt and an open list, then a Stop reading `transcript_path` as given. */
async function stopWith(transcriptPath: unknown): Promise<HookAnswer> {
	await send("UserPromptSubmit", { prompt: "Go.", transcript_path: transcriptPath });
	await send("PostToolUse", {
		tool_name: "TodoWrite",
		tool_input: { todos: [{ content: "One", status: "pending", activeForm: "One" }] },
		transcript_path: transcriptPath,
	});
	return send("Stop", { stop_hook_active: false, last_assistant_message: "Done.", transcript_path: transcriptPath });
}

async function lastDecision() {
	return (await store.readDecisions()).filter((record) => record.kind !== "event").at(-1);
}

async function expectUnseen(transcriptPath: unknown, why: string): Promise<void> {
	const answer = await stopWith(transcriptPath);

	expect(answer.output).toBeNull();
	expect(await lastDecision()).toMatchObject({
		kind: "skip",
		reason: "turn-unsafe",
		detail: `how the last turn went cannot be seen: ${why}`,
	});
}

describe("a Stop whose turn the transcript does not show is not continued", () => {
	it("nudges when the transcript shows the turn (so the cases below are not vacuous)", async () => {
		const file = await writeTranscript(dir, [promptLine("Go."), ...assistantLines("msg_a", [text("Done.")])]);

		expect((await stopWith(file)).output).toMatchObject({ decision: "block" });
	});

	it("no transcript_path in the input", async () => {
		await expectUnseen(undefined, "Claude Code gave no transcript_path");
	});

	it("a transcript that does not exist", async () => {
		const file = path.join(dir, "nope.jsonl");
		await expectUnseen(file, `the transcript ${file} does not exist`);
	});

	it("a folder", async () => {
		const folder = path.join(dir, "folder.jsonl");
		await mkdir(folder);
		await expectUnseen(folder, `cannot read the transcript ${folder}: it is a folder, not a regular file`);
	});

	it.runIf(posix && existsSync("/dev/zero"))("/dev/zero, and a link to it", async () => {
		await expectUnseen(
			"/dev/zero",
			"cannot read the transcript /dev/zero: it is a character device, not a regular file",
		);
		const link = path.join(dir, "zero.jsonl");
		await symlink("/dev/zero", link);
		({ engine, store } = memoryEngine());
		await expectUnseen(link, `cannot read the transcript ${link}: it is a character device, not a regular file`);
	});

	it.runIf(posix)("a FIFO, at once, instead of hanging until the hook's watchdog", async () => {
		const fifo = path.join(dir, "f.jsonl");
		makeFifo(fifo);
		await expectUnseen(fifo, `cannot read the transcript ${fifo}: it is a FIFO (named pipe), not a regular file`);
	});

	it("random bytes", async () => {
		const file = path.join(dir, "random.jsonl");
		await writeFile(file, randomBytes(64 * 1024));

		const answer = await stopWith(file);

		expect(answer.output).toBeNull();
		expect(await lastDecision()).toMatchObject({
			reason: "turn-unsafe",
			detail: expect.stringContaining(`no line of the transcript ${file} begins the current turn`),
		});
	});

	it("an empty file", async () => {
		const file = path.join(dir, "empty.jsonl");
		await writeFile(file, "");
		await expectUnseen(file, `no line of the transcript ${file} begins the current turn`);
	});

	it("says so in one line of the log: the decision, with no error beside it", async () => {
		const file = path.join(dir, "nope.jsonl");
		await stopWith(file);

		const records = await store.readDecisions();
		expect(records.filter((record) => record.reason === "turn-unsafe")).toHaveLength(1);
		expect(records.some((record) => record.reason === "error")).toBe(false);
	});

	it("but a session's first prompt, before its transcript exists, is not an error", async () => {
		await send("UserPromptSubmit", { prompt: "Go.", transcript_path: path.join(dir, "later.jsonl") });

		expect((await store.readDecisions()).some((record) => record.reason === "error")).toBe(false);
	});

	it.runIf(posix)("and a prompt whose transcript is a FIFO records the problem and goes on", async () => {
		const fifo = path.join(dir, "f.jsonl");
		makeFifo(fifo);

		await send("UserPromptSubmit", { prompt: "Go.", transcript_path: fifo });

		expect((await store.readDecisions()).at(-2)).toMatchObject({
			reason: "error",
			detail: `UserPromptSubmit: cannot read the transcript ${fifo}: it is a FIFO (named pipe), not a regular file`,
		});
	});
});
