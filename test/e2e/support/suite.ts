/**
 * What every end-to-end suite needs around its harness: a check that the
 * build it drives is there, the headers by which a test tells boulder's own
 * messages from the rest of a conversation, and the project's files: the
 * ones a scenario starts from, the decision log and the works boulder keeps.
 *
 * Contract: the headers are read from the product's own prompts, so a test
 * looks for exactly what boulder sends.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CONTINUATION_PROMPT } from "../../../src/core/prompts/continuation.prompt.js";
import { RESUME_CONTEXT } from "../../../src/core/prompts/resume.prompt.js";

export const REPO = fileURLToPath(new URL("../../../", import.meta.url));
/** The bundled program every command-hook harness runs (`boulder-hook.cjs <harness> <event>`). */
export const COMMAND_HOOK = join(REPO, "dist", "hook", "boulder-hook.cjs");
/** Claude Code's own bundled hook program. */
export const CLAUDE_HOOK = join(REPO, "dist", "hook", "claude-code.cjs");

/** The first line of every boulder nudge (continuation, failed check, orchestration). */
export const NUDGE = headerOf(CONTINUATION_PROMPT);
/** The first line of the context a resumed, compacted or restarted session is given. */
export const CONTEXT = headerOf(RESUME_CONTEXT);

/**
 * How long a suite watches for something that must not happen, where no event
 * would show it (silence is the only observable). One constant for every such
 * wait, so each is named and the same; a wait for an outcome waits on the
 * event that proves it instead.
 */
export const SILENCE_MS = 1_500;

/** Lets `SILENCE_MS` pass, for a check that something did not happen where nothing else would prove it. */
export function waitOutSilence(): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, SILENCE_MS));
}

/**
 * Waits until `check` holds (looking again every 50 ms), for an outcome that shows in a file rather than
 * in an event: fails naming `what` after `timeoutMs`.
 */
export async function waitUntil(
	check: () => Promise<boolean> | boolean,
	what: string,
	timeoutMs = 60_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

/** One line of `.boulder/decisions.jsonl`. */
export type DecisionRecord = Record<string, unknown>;

/** Fails (in `beforeAll`) unless `npm run build` left the CLI and each of `files` in place. */
export function requireBuilt(...files: string[]): void {
	for (const file of [join(REPO, "dist", "cli", "main.js"), ...files]) {
		if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
	}
}

/** Writes a scenario's files into the project (relative path → content). */
export async function writeProjectFiles(project: string, files: Record<string, string>): Promise<void> {
	for (const [file, content] of Object.entries(files)) await writeFile(join(project, file), content);
}

/** The works boulder keeps for the project (`.boulder/works.json`), in the file's order. */
export async function readWorks(project: string): Promise<Record<string, unknown>[]> {
	const file = JSON.parse(await readFile(join(project, ".boulder", "works.json"), "utf8")) as {
		works: Record<string, Record<string, unknown>>;
	};
	return Object.values(file.works);
}

/** The project's decision log, oldest first. */
export function readDecisionLog(
	project: string,
	options: { missingIsEmpty?: boolean } = {},
): Promise<DecisionRecord[]> {
	return readJsonLines(join(project, ".boulder", "decisions.jsonl"), options);
}

/**
 * One parsed object per line of a JSON-lines file. A missing file fails the
 * read, unless `missingIsEmpty` (for checks that also run where nothing wrote).
 */
export async function readJsonLines(
	file: string,
	options: { missingIsEmpty?: boolean } = {},
): Promise<Record<string, unknown>[]> {
	const reading = readFile(file, "utf8");
	const text = await (options.missingIsEmpty ? reading.catch(() => "") : reading);
	return text
		.split("\n")
		.filter((line) => line.trim() !== "")
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A prompt's header: its first line up to the dash that says what the message is not. */
function headerOf(prompt: string): string {
	const end = prompt.indexOf(" — ");
	if (end < 0 || prompt.slice(0, end).includes("\n"))
		throw new Error(`no header in the prompt: ${prompt.slice(0, 60)}`);
	return prompt.slice(0, end);
}
