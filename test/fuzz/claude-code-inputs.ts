/**
 * Generated input for the Claude Code hook fuzzers: real payloads of every
 * hook event (the shapes of `test/adapters/claude-code/helpers.ts` and the
 * e2e runs) and their mutations, random JSON, random bytes and text, huge and
 * deep values, hostile ids, and a folder of hostile transcripts (a FIFO,
 * links to devices, a folder, random bytes, a file that begins no turn).
 *
 * Also the oracle's half that does not depend on the hook: whether an input
 * is a well-formed event, which transcript a path names, and which project a
 * call lands in.
 */
import { closeSync, constants, openSync, realpathSync } from "node:fs";
import { mkdir, symlink, truncate, writeFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { HOOK_EVENTS } from "../../src/adapters/claude-code/events.js";
import {
	assistantLines,
	interruptLine,
	jsonl,
	promptLine,
	stopFeedbackLine,
	text,
	toolResultLine,
	toolUse,
} from "../adapters/claude-code/helpers.js";
import { makeFifo } from "../support/fifo.js";

/** Sessions most inputs are about, so lists, turns and stops meet. */
export const GOOD_IDS = [
	"7f0e2a54-1c2d-4e5f-8a9b-0c1d2e3f4a5b",
	"0b6a9f1e-2d3c-4b5a-9687-a1b2c3d4e5f6",
	"c0ffee00-0000-4000-8000-000000000001",
	"c0ffee00-0000-4000-8000-000000000002",
	"c0ffee00-0000-4000-8000-000000000003",
	"c0ffee00-0000-4000-8000-000000000004",
] as const;

/** Ids that try to escape the scopes folder, fool a terminal, or be too long; each is a session of its own. */
export const HOSTILE_IDS = [
	"..",
	".",
	"../../../etc/passwd",
	"a/b",
	"a\\b",
	"/",
	"\u0000",
	"x\u0000y",
	"\u001b[2J\u001b[31mred\u0007",
	"line\nbreak\r",
	"CON",
	"nul",
	"~h",
	"session.claude-code.x",
	" padded ",
	"\ud800",
	"\udfff\ud800",
	"é-Ü-ß-漢字-🙂",
	"x".repeat(129),
	"y".repeat(5_000),
] as const;

/** The session that receives the huge lists, kept apart so its big state file slows no other session. */
export const HUGE_SESSION = "huge-lists-session";

export interface HostilePath {
	kind: string;
	path: string;
}

export interface Fixtures {
	/** The folder everything lives in (the process's folder during the run). */
	root: string;
	/** Real transcripts: a prompt, then the assistant's reply. */
	real: string[];
	/** The reply each real transcript ends with (for `last_assistant_message`). */
	realTexts: string[];
	/** Real transcripts with damage (a torn tail, a junk line, an interrupt, a pending question, cut anywhere). */
	mutated: string[];
	/** Paths that are not a readable transcript; a Stop that names one must not be continued. */
	hostile: HostilePath[];
	fifos: string[];
}

const REAL_COUNT = 24;
const MUTATED_COUNT = 16;

/** Builds the transcript folder; its FIFO comes from the pool made before the run (test/support/fifo.ts). */
export async function makeFixtures(root: string, seed: number): Promise<Fixtures> {
	const dir = path.join(root, "transcripts");
	await mkdir(dir, { recursive: true });
	const real: string[] = [];
	const realTexts: string[] = [];
	for (let n = 0; n < REAL_COUNT; n++) {
		const reply = `Done with step ${n}.`;
		const lines = [
			promptLine(`Work on step ${n}.`),
			...assistantLines(`msg_${n}_a`, [toolUse(`tu_${n}`, n % 2 === 0 ? "Edit" : "Bash", { file_path: "a.ts" })]),
			toolResultLine(`tu_${n}`),
			...assistantLines(`msg_${n}_b`, [text(reply)], { input_tokens: 120 + n, output_tokens: 30 }),
		];
		const file = path.join(dir, `real-${n}.jsonl`);
		await writeFile(file, n % 3 === 0 ? jsonl([stopFeedbackLine("earlier nudge"), ...lines]) : jsonl(lines));
		real.push(file);
		realTexts.push(reply);
	}
	const mutated: string[] = [];
	const damage = fc.sample(fc.tuple(fc.nat(), fc.uint8Array({ maxLength: 64 })), { seed, numRuns: MUTATED_COUNT });
	for (let n = 0; n < MUTATED_COUNT; n++) {
		const [at, bytes] = damage[n] as [number, Uint8Array];
		const base = [promptLine(`Mutated ${n}.`), ...assistantLines(`msg_m${n}`, [text(`Reply ${n}.`)])];
		const variants: Array<() => Buffer> = [
			() => Buffer.from(`${jsonl(base)}{"type":"assistant","message":{"id":"torn`),
			() => Buffer.from(`${jsonl(base)}not json at all\n${jsonl(assistantLines(`msg_m${n}x`, [text("more")]))}`),
			() => Buffer.from(jsonl([...base, interruptLine()])),
			() =>
				Buffer.from(
					jsonl([...base, ...assistantLines(`msg_q${n}`, [toolUse(`q${n}`, "AskUserQuestion", { questions: [] })])]),
				),
			() => {
				const whole = Buffer.from(jsonl(base));
				return whole.subarray(0, at % whole.length);
			},
			() => Buffer.concat([Buffer.from(bytes), Buffer.from(jsonl(base)), Buffer.from(bytes)]),
		];
		const file = path.join(dir, `mutated-${n}.jsonl`);
		await writeFile(file, (variants[n % variants.length] as () => Buffer)());
		mutated.push(file);
	}

	const hostile: HostilePath[] = [];
	const add = (kind: string, file: string) => hostile.push({ kind, path: file });
	const fifo = path.join(dir, "fifo.jsonl");
	makeFifo(fifo);
	add("fifo", fifo);
	const linkToFifo = path.join(dir, "link-to-fifo.jsonl");
	await symlink(fifo, linkToFifo);
	add("link to a fifo", linkToFifo);
	add("/dev/zero", "/dev/zero");
	add("/dev/null", "/dev/null");
	add("/dev/urandom", "/dev/urandom");
	add("/dev/stdin", "/dev/stdin");
	const linkToZero = path.join(dir, "link-to-zero.jsonl");
	await symlink("/dev/zero", linkToZero);
	add("link to /dev/zero", linkToZero);
	const linkToRandom = path.join(dir, "link-to-urandom.jsonl");
	await symlink("/dev/urandom", linkToRandom);
	add("link to /dev/urandom", linkToRandom);
	const folder = path.join(dir, "folder.jsonl");
	await mkdir(folder);
	add("folder", folder);
	const linkToFolder = path.join(dir, "link-to-folder.jsonl");
	await symlink(dir, linkToFolder);
	add("link to a folder", linkToFolder);
	const loopA = path.join(dir, "loop-a.jsonl");
	await symlink(path.join(dir, "loop-b.jsonl"), loopA);
	await symlink(loopA, path.join(dir, "loop-b.jsonl"));
	add("symlink loop", loopA);
	const dangling = path.join(dir, "dangling.jsonl");
	await symlink(path.join(dir, "gone.jsonl"), dangling);
	add("dangling link", dangling);
	add("missing", path.join(dir, "missing.jsonl"));
	add("missing folder", path.join(dir, "no-such-folder", "t.jsonl"));
	add("under a file", path.join(real[0] as string, "t.jsonl"));
	add("relative missing", "missing-relative.jsonl");
	add("empty string", "");
	add("NUL in path", `${dir}/nul\u0000.jsonl`);
	add("very long path", `${dir}/${"d/".repeat(3_000)}t.jsonl`);
	add("very long name", `${dir}/${"n".repeat(300)}.jsonl`);
	add("/proc/self/mem (regular, size 0)", "/proc/self/mem");
	add("/etc/passwd (no turn)", "/etc/passwd");
	const empty = path.join(dir, "empty.jsonl");
	await writeFile(empty, "");
	add("empty file", empty);
	const newlines = path.join(dir, "newlines.jsonl");
	await writeFile(newlines, "\n".repeat(100_000));
	add("only newlines", newlines);
	const noTurn = path.join(dir, "no-turn.jsonl");
	await writeFile(noTurn, jsonl(assistantLines("msg_x", [text("No prompt before me.")])));
	add("no line begins a turn", noTurn);
	const onlyJunk = path.join(dir, "json-junk.jsonl");
	await writeFile(onlyJunk, `${["[]", "1", '"s"', "null", "{}", '{"type":"user"}'].join("\n")}\n`);
	add("JSON lines of no transcript", onlyJunk);
	const randomFiles = fc.sample(fc.uint8Array({ minLength: 1, maxLength: 200_000 }), { seed: seed + 1, numRuns: 6 });
	for (const [n, bytes] of randomFiles.entries()) {
		const file = path.join(dir, `random-${n}.bin`);
		await writeFile(file, bytes);
		add("random bytes", file);
	}
	const sparse = path.join(dir, "huge-sparse.jsonl");
	await writeFile(sparse, "");
	await truncate(sparse, 300 * 1024 * 1024);
	add("300 MB of zero bytes, no newline", sparse);
	return { root, real, realTexts, mutated, hostile, fifos: [fifo] };
}

/**
 * Lets a reader stuck opening a FIFO go: opening the other end (non-blocking)
 * completes its open, and closing it gives it end of file.
 */
export function releaseFifos(fixtures: Fixtures): void {
	for (const fifo of fixtures.fifos) {
		try {
			closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
		} catch {
			// ENXIO: nobody is reading it, so nobody is stuck.
		}
	}
}

/** How stdin reaches the hook. */
export type Stdin =
	| { kind: "text"; text: string }
	| { kind: "bytes"; bytes: Uint8Array }
	/** The same text cut into string and buffer chunks at the given places. */
	| { kind: "chunks"; text: string; cuts: number[] }
	/** A stream that fails after its first chunk. */
	| { kind: "failing"; text: string }
	/** Built on demand: the input of a huge case. */
	| { kind: "huge"; huge: Huge };

export type Huge =
	| "over-limit"
	| "deep-array"
	| "deep-in-payload"
	| "big-strings"
	| "many-items"
	| "long-session-id"
	| "many-keys";

export const HUGE_KINDS: readonly Huge[] = [
	"over-limit",
	"deep-array",
	"deep-in-payload",
	"big-strings",
	"many-items",
	"long-session-id",
	"many-keys",
];

export interface HookCase {
	/** The hook's argument (the event it was registered for). */
	event: string | undefined;
	stdin: Stdin;
	/** `CLAUDE_PROJECT_DIR`, or undefined for none. */
	projectDir: string | undefined;
	/** The process's own folder. */
	processCwd: string;
	/** In-process only: a stdout or stderr whose `write` throws. */
	streams: "ok" | "stdout-throws" | "stderr-throws";
	/** Which generator made it, for the tallies. */
	label: string;
}

/** The places a case's paths can point: the current worktrees and the fixtures. */
export interface Places {
	fixtures: Fixtures;
	/** A git worktree with a good config. */
	good: string;
	/** A folder inside it. */
	goodSub: string;
	/** A git worktree whose config is broken. */
	badConfig: string;
	/** A folder in no project. */
	outside: string;
}

const unit16 = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const anyText = fc.oneof(
	fc.string({ maxLength: 40 }),
	fc.string({ unit: unit16, maxLength: 40 }),
	fc.string({ unit: "binary", maxLength: 40 }),
);
const anyJson = fc.jsonValue({ maxDepth: 4 });
const anything = fc.oneof(anyJson, anyText, fc.constantFrom(null, true, false, 0, -1, 1e308, [], {}));

const statusWord = fc.oneof(
	{ weight: 8, arbitrary: fc.constantFrom("pending", "in_progress", "completed") },
	{ weight: 1, arbitrary: fc.constantFrom("cancelled", "blocked", "deleted", "done", "PENDING", "", "todo") },
	{ weight: 1, arbitrary: anything },
);

const todoItem = fc.record({
	content: fc.oneof({ weight: 6, arbitrary: fc.constantFrom("Write the parser", "Add tests", "Ship") }, anyText),
	status: statusWord,
	activeForm: fc.constantFrom("Writing", "Adding", "Shipping"),
});

function sessionIdArb() {
	return fc.oneof(
		{ weight: 14, arbitrary: fc.constantFrom(...GOOD_IDS) },
		{ weight: 4, arbitrary: fc.constantFrom(...HOSTILE_IDS) },
		{ weight: 1, arbitrary: anyText },
	);
}

function transcriptArb(places: Places) {
	const { fixtures } = places;
	return fc.oneof(
		{ weight: 8, arbitrary: fc.constantFrom(...fixtures.real) },
		{ weight: 2, arbitrary: fc.constantFrom(...fixtures.mutated) },
		{ weight: 6, arbitrary: fc.constantFrom(...fixtures.hostile.map((hostile) => hostile.path)) },
		{ weight: 1, arbitrary: anyText },
	);
}

function cwdArb(places: Places) {
	return fc.oneof(
		{ weight: 8, arbitrary: fc.constant(places.good) },
		{ weight: 2, arbitrary: fc.constant(places.goodSub) },
		{ weight: 1, arbitrary: fc.constant(places.badConfig) },
		{ weight: 1, arbitrary: fc.constant(places.outside) },
		{
			weight: 1,
			arbitrary: fc.constantFrom(
				"/",
				"/dev/zero",
				"/dev/null",
				".",
				"..",
				"relative/folder",
				places.fixtures.fifos[0] as string,
				path.join(places.good, "missing"),
				path.join(places.good, "\u0000"),
			),
		},
		{ weight: 1, arbitrary: anyText },
	);
}

/** The fields every event carries, then the event's own, as Claude Code 2.1.197 writes them. */
function payloadArb(event: string, places: Places): fc.Arbitrary<Record<string, unknown>> {
	const common = fc.record({
		session_id: sessionIdArb(),
		transcript_path: transcriptArb(places),
		cwd: cwdArb(places),
		hook_event_name: fc.constant(event),
		permission_mode: fc.constantFrom("default", "acceptEdits", "plan", "bypassPermissions"),
	});
	const subagent = fc.oneof(
		{ weight: 9, arbitrary: fc.constant({}) },
		{
			weight: 1,
			arbitrary: fc.record({ agent_id: fc.constantFrom("a1", "agent-7"), agent_type: fc.constant("Explore") }),
		},
	);
	return fc
		.tuple(common, ownFields(event, places), subagent)
		.map(([base, own, agent]) => ({ ...base, ...own, ...agent }));
}

function ownFields(event: string, places: Places): fc.Arbitrary<Record<string, unknown>> {
	const reply = fc.oneof(
		{ weight: 5, arbitrary: fc.constantFrom(...places.fixtures.realTexts) },
		{ weight: 1, arbitrary: fc.constantFrom("Which database should I use?", "Shall I go on?") },
		{ weight: 1, arbitrary: anyText },
	);
	switch (event) {
		case "SessionStart":
			return fc.record({
				source: fc.constantFrom("startup", "resume", "clear", "compact"),
				model: fc.constant("claude-opus-4-8"),
			});
		case "UserPromptSubmit":
			return fc.record(
				{
					prompt: fc.oneof(
						{ weight: 6, arbitrary: fc.constantFrom("Go.", "Do the list.", "Carry on.") },
						{
							weight: 2,
							arbitrary: fc.constantFrom(
								"/boulder:why",
								"/boulder:status",
								"<command-name>/boulder:why</command-name>",
							),
						},
						{ weight: 1, arbitrary: anyText },
					),
					source: fc.constantFrom("user", "system", "loop_wakeup", "schedule_wakeup"),
				},
				{ requiredKeys: ["prompt"] },
			);
		case "PostToolUse":
			return toolFields();
		case "Stop":
			return fc.record(
				{
					stop_hook_active: fc.boolean(),
					last_assistant_message: reply,
					background_tasks: fc.array(
						fc.record({ id: fc.constantFrom("b1", "b2"), status: fc.constantFrom("running", "completed", "failed") }),
						{ maxLength: 3 },
					),
				},
				{ requiredKeys: ["stop_hook_active"] },
			);
		case "SubagentStop":
			return fc.record({
				stop_hook_active: fc.boolean(),
				agent_id: fc.constantFrom("a1", "agent-7"),
				agent_type: fc.constantFrom("Explore", "general-purpose"),
				agent_transcript_path: transcriptArb(places),
				last_assistant_message: reply,
			});
		case "StopFailure":
			return fc.record(
				{
					error: fc.constantFrom("rate_limit", "server_error", "invalid_request", "authentication_failed"),
					error_details: fc.oneof(
						fc.constantFrom("prompt is too long: 210000 tokens > 200000 maximum", "overloaded"),
						anything,
					),
					last_assistant_message: reply,
				},
				{ requiredKeys: ["error"] },
			);
		case "PreCompact":
			return fc.record({
				trigger: fc.constantFrom("manual", "auto"),
				custom_instructions: fc.constantFrom("", "Keep it."),
			});
		case "PostCompact":
			return fc.record({
				trigger: fc.constantFrom("manual", "auto"),
				compact_summary: fc.constantFrom("Summary.", ""),
			});
		default:
			return fc.constant({});
	}
}

function toolFields(): fc.Arbitrary<Record<string, unknown>> {
	const todos = fc.array(todoItem, { maxLength: 8 });
	const taskId = fc.oneof(fc.constantFrom("1", "2", "3", "4"), anything);
	return fc.oneof(
		{
			weight: 6,
			arbitrary: todos.map((list) => ({
				tool_name: "TodoWrite",
				tool_input: { todos: list },
				tool_response: { oldTodos: [], newTodos: list },
				tool_use_id: "toolu_1",
			})),
		},
		{
			weight: 2,
			arbitrary: fc.tuple(taskId, fc.constantFrom("Write the parser", "Add tests")).map(([id, subject]) => ({
				tool_name: "TaskCreate",
				tool_input: { subject, description: "d" },
				tool_response: { task: { id, subject } },
			})),
		},
		{
			weight: 2,
			arbitrary: fc.tuple(taskId, statusWord).map(([id, status]) => ({
				tool_name: "TaskUpdate",
				tool_input: { taskId: id, status },
				tool_response: { success: true, taskId: id },
			})),
		},
		{
			weight: 1,
			arbitrary: fc.tuple(taskId, fc.array(todoItem, { maxLength: 4 })).map(([id, list]) => ({
				tool_name: "TaskList",
				tool_input: {},
				tool_response: {
					tasks: list.map((item, n) => ({ id: n === 0 ? id : String(n), subject: item.content, status: item.status })),
				},
			})),
		},
		{
			weight: 1,
			arbitrary: fc.record({
				tool_name: fc.constantFrom("TaskGet", "Edit", "Bash", "TodoRead", ""),
				tool_input: anything,
				tool_response: anything,
			}),
		},
	);
}

type Mutation =
	| { op: "delete"; key: string }
	| { op: "set"; key: string; value: unknown }
	| { op: "event"; value: unknown };

const KEYS = [
	"session_id",
	"transcript_path",
	"cwd",
	"hook_event_name",
	"agent_id",
	"agent_type",
	"prompt",
	"source",
	"tool_name",
	"tool_input",
	"tool_response",
	"last_assistant_message",
	"background_tasks",
	"stop_hook_active",
	"error",
	"error_details",
	"__proto__",
	"constructor",
];

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
	fc.record({ op: fc.constant("delete" as const), key: fc.constantFrom(...KEYS) }),
	fc.record({ op: fc.constant("set" as const), key: fc.oneof(fc.constantFrom(...KEYS), anyText), value: anything }),
	fc.record({
		op: fc.constant("event" as const),
		value: fc.oneof(fc.constantFrom(...HOOK_EVENTS, "Notification", "stop", ""), anything),
	}),
);

type TextDamage =
	| { op: "none" }
	| { op: "truncate"; at: number }
	| { op: "wrap"; before: string; after: string }
	| { op: "bytes"; at: number; bytes: Uint8Array };

const damageArb: fc.Arbitrary<TextDamage> = fc.oneof(
	{ weight: 20, arbitrary: fc.constant({ op: "none" as const }) },
	{ weight: 1, arbitrary: fc.record({ op: fc.constant("truncate" as const), at: fc.nat() }) },
	{
		weight: 1,
		arbitrary: fc.record({
			op: fc.constant("wrap" as const),
			before: fc.constantFrom("\uFEFF", " \n\t", "[", "x", "\u0000"),
			after: fc.constantFrom("", "\n", "}", " trailing", "\u0000", '{"second":1}'),
		}),
	},
	{
		weight: 1,
		arbitrary: fc.record({ op: fc.constant("bytes" as const), at: fc.nat(), bytes: fc.uint8Array({ maxLength: 8 }) }),
	},
);

function applyMutations(payload: Record<string, unknown>, mutations: readonly Mutation[]): Record<string, unknown> {
	const out: Record<string, unknown> = { ...payload };
	for (const mutation of mutations) {
		if (mutation.op === "delete") delete out[mutation.key];
		else if (mutation.op === "set")
			Object.defineProperty(out, mutation.key, {
				value: mutation.value,
				enumerable: true,
				writable: true,
				configurable: true,
			});
		else out.hook_event_name = mutation.value;
	}
	return out;
}

function damaged(textIn: string, damage: TextDamage): Stdin {
	switch (damage.op) {
		case "none":
			return { kind: "text", text: textIn };
		case "truncate":
			return { kind: "text", text: textIn.slice(0, damage.at % Math.max(1, textIn.length)) };
		case "wrap":
			return { kind: "text", text: `${damage.before}${textIn}${damage.after}` };
		case "bytes": {
			const whole = Buffer.from(textIn);
			const at = damage.at % Math.max(1, whole.length);
			return { kind: "bytes", bytes: Buffer.concat([whole.subarray(0, at), damage.bytes, whole.subarray(at)]) };
		}
	}
}

/** Every kind of stdin for one event, most of them its real payload, mutated or not. */
export function stdinArb(event: string, places: Places): fc.Arbitrary<{ stdin: Stdin; label: string }> {
	const mutatedPayload = fc
		.tuple(
			payloadArb(event, places),
			fc.oneof(
				{ weight: 3, arbitrary: fc.constant([]) },
				{ weight: 2, arbitrary: fc.array(mutationArb, { maxLength: 3 }) },
			),
			damageArb,
		)
		.map(([payload, mutations, damage]) => ({
			stdin: damaged(JSON.stringify(applyMutations(payload, mutations)), damage),
			label: mutations.length === 0 && damage.op === "none" ? "real payload" : "mutated payload",
		}));
	const chunked = fc.tuple(payloadArb(event, places), fc.array(fc.nat(), { maxLength: 6 })).map(([payload, cuts]) => ({
		stdin: { kind: "chunks" as const, text: JSON.stringify(payload), cuts },
		label: "chunked payload",
	}));
	return fc.oneof(
		{ weight: 60, arbitrary: mutatedPayload },
		{ weight: 4, arbitrary: chunked },
		{
			weight: 6,
			arbitrary: anyJson.map((value) => ({
				stdin: { kind: "text" as const, text: JSON.stringify(value) },
				label: "random JSON",
			})),
		},
		{
			weight: 4,
			arbitrary: fc
				.dictionary(fc.constantFrom(...KEYS), anything, { maxKeys: 6 })
				.map((value) => ({ stdin: { kind: "text" as const, text: JSON.stringify(value) }, label: "random object" })),
		},
		{
			weight: 4,
			arbitrary: fc
				.uint8Array({ maxLength: 512 })
				.map((bytes) => ({ stdin: { kind: "bytes" as const, bytes }, label: "random bytes" })),
		},
		{
			weight: 3,
			arbitrary: fc
				.string({ unit: unit16, maxLength: 200 })
				.map((value) => ({ stdin: { kind: "text" as const, text: value }, label: "random text" })),
		},
		{
			weight: 1,
			arbitrary: fc
				.constantFrom("", " ", "\n", "null", "[]", "{}", '""', "0", "{", "}", "\uFEFF{}")
				.map((value) => ({ stdin: { kind: "text" as const, text: value }, label: "empty or trivial" })),
		},
		{
			weight: 1,
			arbitrary: payloadArb(event, places).map((payload) => ({
				stdin: { kind: "failing" as const, text: JSON.stringify(payload) },
				label: "failing stdin",
			})),
		},
	);
}

/** A whole case for one event: the stdin, the environment and the streams. */
export function caseArb(event: string | undefined, places: Places, options: { hostileStreams: boolean }) {
	const projectDir = fc.oneof(
		{ weight: 12, arbitrary: fc.constant<string | undefined>(places.good) },
		{ weight: 5, arbitrary: fc.constant<string | undefined>(undefined) },
		{ weight: 1, arbitrary: fc.constant<string | undefined>(places.badConfig) },
		{
			weight: 1,
			arbitrary: fc.constantFrom<string | undefined>(
				"",
				places.outside,
				places.fixtures.fifos[0] as string,
				"/dev/null",
				path.join(places.good, "missing"),
				"relative",
			),
		},
	);
	const streams = options.hostileStreams
		? fc.oneof(
				{ weight: 30, arbitrary: fc.constant("ok" as const) },
				{ weight: 1, arbitrary: fc.constantFrom("stdout-throws" as const, "stderr-throws" as const) },
			)
		: fc.constant("ok" as const);
	return fc
		.tuple(
			stdinArb(event ?? "Stop", places),
			projectDir,
			fc.constantFrom(places.good, places.outside, places.fixtures.root),
			streams,
		)
		.map(
			([{ stdin, label }, dir, processCwd, stream]): HookCase => ({
				event,
				stdin,
				projectDir: dir,
				processCwd,
				streams: stream,
				label,
			}),
		);
}

const MB = 1024 * 1024;
const hugeCache = new Map<string, Buffer[]>();

/** The chunks of a huge case, built once per kind and event. */
export function hugeChunks(huge: Huge, event: string, places: Places): Buffer[] {
	const key = `${huge}:${event}:${places.good}`;
	const cached = hugeCache.get(key);
	if (cached) return cached;
	const head = (sessionId: string) =>
		JSON.stringify({
			session_id: sessionId,
			transcript_path: places.fixtures.real[0],
			cwd: places.good,
			hook_event_name: event,
		}).slice(0, -1);
	let chunks: Buffer[];
	switch (huge) {
		case "over-limit": {
			const spaces = Buffer.alloc(MB, 0x20);
			chunks = [Buffer.from(head(GOOD_IDS[0])), ...Array.from({ length: 33 }, () => spaces), Buffer.from("}")];
			break;
		}
		case "deep-array":
			chunks = [Buffer.from(`${"[".repeat(500_000)}${"]".repeat(500_000)}`)];
			break;
		case "deep-in-payload": {
			const deep = `${'{"a":['.repeat(60_000)}1${"]}".repeat(60_000)}`;
			const fields = ["tool_input", "tool_response", "error_details", "background_tasks", "prompt", "extra"];
			chunks = [
				Buffer.from(`${head(GOOD_IDS[1])},"tool_name":"TodoWrite",${fields.map((f) => `"${f}":${deep}`).join(",")}}`),
			];
			break;
		}
		case "big-strings": {
			const big = "é".repeat(MB);
			chunks = [
				Buffer.from(
					JSON.stringify({
						session_id: GOOD_IDS[2],
						transcript_path: places.fixtures.real[1],
						cwd: places.good,
						hook_event_name: event,
						prompt: big,
						last_assistant_message: big,
						error: big,
						tool_name: "TodoWrite",
						tool_input: { todos: [{ content: big, status: "pending", activeForm: big }] },
					}),
				),
			];
			break;
		}
		case "many-items": {
			const todos = Array.from({ length: 100_000 }, (_, n) => ({
				content: `Item ${n}`,
				status: n % 2 === 0 ? "pending" : "completed",
				activeForm: "x",
			}));
			chunks = [
				Buffer.from(
					JSON.stringify({
						session_id: HUGE_SESSION,
						transcript_path: places.fixtures.real[2],
						cwd: places.good,
						hook_event_name: event,
						tool_name: "TodoWrite",
						tool_input: { todos },
						background_tasks: Array.from({ length: 300_000 }, () => ({ status: "running" })),
					}),
				),
			];
			break;
		}
		case "long-session-id":
			chunks = [Buffer.from(`${head("s".repeat(2 * MB))}}`)];
			break;
		case "many-keys": {
			const keys = Array.from({ length: 200_000 }, (_, n) => `"k${n}":${n}`).join(",");
			chunks = [Buffer.from(`${head(GOOD_IDS[3])},${keys}}`)];
			break;
		}
	}
	hugeCache.clear();
	hugeCache.set(key, chunks);
	return chunks;
}

/** The bytes the hook reads for a case. */
export function stdinBytes(stdin: Stdin, event: string, places: Places): Buffer {
	switch (stdin.kind) {
		case "text":
		case "chunks":
		case "failing":
			return Buffer.from(stdin.text);
		case "bytes":
			return Buffer.from(stdin.bytes);
		case "huge":
			return Buffer.concat(hugeChunks(stdin.huge, event, places));
	}
}

/** What the hook reads in-process: plain chunks, cut chunks, or a stream that fails. */
export function stdinStream(stdin: Stdin, event: string, places: Places): HookStdin {
	switch (stdin.kind) {
		case "text":
			return [Buffer.from(stdin.text)];
		case "bytes":
			return [Buffer.from(stdin.bytes)];
		case "huge":
			return hugeChunks(stdin.huge, event, places);
		case "chunks": {
			const whole = stdin.text;
			const cuts = [...new Set(stdin.cuts.map((cut) => cut % Math.max(1, whole.length)))].sort((a, b) => a - b);
			const pieces: Array<string | Buffer> = [];
			let from = 0;
			for (const [n, cut] of [...cuts, whole.length].entries()) {
				const piece = whole.slice(from, cut);
				pieces.push(n % 2 === 0 ? piece : Buffer.from(piece));
				from = cut;
			}
			return pieces;
		}
		case "failing": {
			const first = Buffer.from(stdin.text.slice(0, 10));
			return {
				async *[Symbol.asyncIterator]() {
					yield first;
					throw new Error("stdin broke");
				},
			};
		}
	}
}

export type HookStdin = AsyncIterable<string | Buffer> | Iterable<string | Buffer>;

/** The input as `parseHookInput` must accept it: a JSON object for this event naming its session. */
export function wellFormedFor(bytes: Buffer, event: string | undefined): Record<string, unknown> | null {
	if (event === undefined || !(HOOK_EVENTS as readonly string[]).includes(event)) return null;
	if (bytes.length > 32 * MB) return null;
	let value: unknown;
	try {
		value = JSON.parse(bytes.toString("utf8"));
	} catch {
		return null;
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
	const record = value as Record<string, unknown>;
	if (record.hook_event_name !== undefined && record.hook_event_name !== event) return null;
	if (typeof record.session_id !== "string" || record.session_id.trim() === "") return null;
	return record;
}

export type TranscriptClass = "real" | "mutated" | "hostile";

/** What a transcript path names, judged by where it finally leads (a link to a real transcript is real). */
export function transcriptClass(
	value: unknown,
	fixtures: Fixtures,
	real: ReadonlySet<string>,
	mutated: ReadonlySet<string>,
): TranscriptClass {
	if (typeof value !== "string" || value.trim() === "") return "hostile";
	let target: string;
	try {
		target = realpathSync(path.resolve(fixtures.root, value));
	} catch {
		return "hostile";
	}
	if (real.has(target)) return "real";
	if (mutated.has(target)) return "mutated";
	return "hostile";
}

/** The folder a call's state is kept in, when it is the good worktree; null for any other place. */
export function goodProjectOf(kase: HookCase, input: Record<string, unknown>, places: Places): string | null {
	const cwd = typeof input.cwd === "string" && input.cwd.trim() !== "" ? input.cwd : null;
	const folder = kase.projectDir || cwd || kase.processCwd;
	let real: string;
	try {
		real = realpathSync(path.resolve(places.fixtures.root, folder));
	} catch {
		return null;
	}
	const good = realpathSync(places.good);
	return real === good || real.startsWith(`${good}${path.sep}`) ? good : null;
}
