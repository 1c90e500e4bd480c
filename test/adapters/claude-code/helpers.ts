/**
 * Builders for the Claude Code adapter's tests: transcript lines shaped like
 * the ones Claude Code 2.1.197 writes (one line per content block, usage
 * repeated on each), hook inputs, and an engine over a memory store with a
 * clock the test moves.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type HookInput, parseHookInput } from "../../../src/adapters/claude-code/events.js";
import type { TurnReading } from "../../../src/adapters/claude-code/transcript.js";
import { Config, type ConfigInput } from "../../../src/core/config.js";
import { Engine } from "../../../src/engine/engine.js";
import { MemoryStore } from "../../../src/state/memory-store.js";

export const SESSION = "7f0e2a54-1c2d-4e5f-8a9b-0c1d2e3f4a5b";

export const clock = {
	t: Date.UTC(2026, 10, 30, 9, 0, 0),
	now(): number {
		return this.t;
	},
};

export function tick(ms = 1000): void {
	clock.t += ms;
}

export function memoryEngine(config: ConfigInput = {}): { engine: Engine; store: MemoryStore } {
	const store = new MemoryStore("/w", { clock });
	const engine = new Engine({ store, config: Config.parse(config), clock, plans: { read: async () => null } });
	return { engine, store };
}

export async function tempDir(prefix = "boulder-cc-"): Promise<string> {
	return mkdtemp(path.join(os.tmpdir(), prefix));
}

/** A hook input as Claude Code sends it, parsed the way the hook parses it. */
export function hookInput(event: string, fields: Record<string, unknown> = {}): HookInput {
	const parsed = parseHookInput(
		JSON.stringify({
			session_id: SESSION,
			transcript_path: "/transcripts/session.jsonl",
			cwd: "/w",
			hook_event_name: event,
			...fields,
		}),
		event,
	);
	if (!parsed.ok) throw new Error(parsed.problem);
	return parsed.input;
}

let uuid = 0;
function stamp(at: number): Record<string, unknown> {
	uuid++;
	return {
		parentUuid: null,
		isSidechain: false,
		uuid: `00000000-0000-4000-8000-${String(uuid).padStart(12, "0")}`,
		timestamp: new Date(at).toISOString(),
		sessionId: SESSION,
		version: "2.1.197",
	};
}

export interface Usage {
	input_tokens?: number;
	output_tokens?: number;
	cache_creation_input_tokens?: number;
	cache_read_input_tokens?: number;
}

/** A prompt line (what `-p` or a typed message writes). */
export function promptLine(text: string, at = clock.t): Record<string, unknown> {
	return { ...stamp(at), type: "user", promptId: "p1", message: { role: "user", content: text } };
}

/** The line a Stop hook's block writes before the continuation. */
export function stopFeedbackLine(reason: string, at = clock.t): Record<string, unknown> {
	return {
		...stamp(at),
		type: "user",
		isMeta: true,
		message: { role: "user", content: `Stop hook feedback:\n${reason}` },
	};
}

/** One assistant message: one line per block, each repeating the usage. */
export function assistantLines(
	id: string,
	blocks: Record<string, unknown>[],
	usage: Usage = { input_tokens: 100, output_tokens: 10 },
	at = clock.t,
): Record<string, unknown>[] {
	return blocks.map((block) => ({
		...stamp(at),
		type: "assistant",
		message: {
			id,
			type: "message",
			role: "assistant",
			model: "claude-opus-4-8",
			content: [block],
			stop_reason: "end_turn",
			usage: { cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...usage },
		},
	}));
}

export function text(value: string): Record<string, unknown> {
	return { type: "text", text: value };
}

export function toolUse(id: string, name: string, input: Record<string, unknown> = {}): Record<string, unknown> {
	return { type: "tool_use", id, name, input };
}

export function toolResultLine(toolUseId: string, content = "ok", at = clock.t): Record<string, unknown> {
	return {
		...stamp(at),
		type: "user",
		message: { role: "user", content: [{ type: "tool_result", tool_use_id: toolUseId, content }] },
		toolUseResult: { stdout: content },
	};
}

export function interruptLine(at = clock.t): Record<string, unknown> {
	return {
		...stamp(at),
		type: "user",
		message: { role: "user", content: [{ type: "text", text: "[Request interrupted by user for tool use]" }] },
	};
}

export function jsonl(lines: readonly Record<string, unknown>[]): string {
	return lines.map((line) => `${JSON.stringify(line)}\n`).join("");
}

export async function writeTranscript(
	dir: string,
	lines: readonly Record<string, unknown>[],
	tail = "",
): Promise<string> {
	const file = path.join(dir, `${SESSION}.jsonl`);
	await writeFile(file, jsonl(lines) + tail);
	return file;
}

/** The scope key of `SESSION`, as the engine names it. */
export const SCOPE = `session.claude-code.${SESSION.replaceAll(/[^a-z0-9_-]/g, (c) => `~${c.charCodeAt(0).toString(16)}`)}`;

/** A turn reading of a finished turn that asked nothing; `partial` changes what a test is about. */
export function reading(partial: Partial<TurnReading> = {}): TurnReading {
	return {
		spend: { input: 1000, output: 100, cacheWrite: 0 },
		calls: 1,
		activity: 0,
		interrupt: null,
		pendingQuestion: null,
		startMarker: null,
		lastAssistantText: "Done for now.",
		foundStart: true,
		partialLastLine: false,
		skippedLines: 0,
		lagging: false,
		limit: null,
		...partial,
	};
}
