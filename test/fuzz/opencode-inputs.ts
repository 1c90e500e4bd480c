/**
 * Generated hook calls for the OpenCode fuzzer: OpenCode 1.18.33's real bus
 * events and hook inputs (the shapes `FakeOpenCode` sends, see
 * docs/opencode-notes.md), grouped as OpenCode sends them (a prompt, a step,
 * an idle pair), mutated at any depth; garbage that names a session but can
 * never be read as a turn; random JSON; huge values; and `/boulder` and other
 * commands with random arguments.
 *
 * Also the oracle's half that does not depend on the hub: which calls are a
 * real user prompt, a finished reply, or an open list.
 */
import fc from "fast-check";
import { MODEL } from "../adapters/opencode/helpers.js";

export type HookName = "event" | "chat.message" | "tool.execute.before" | "command.execute.before" | "config";

/** One call of a hook, with its arguments. */
export interface Call {
	hook: HookName;
	args: unknown[];
	/** Which generator made it, for the tallies. */
	label: string;
}

const unit16 = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const anyText = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: unit16, maxLength: 30 }));
const hostileText = fc.constantFrom(
	"",
	" ",
	"\u0000",
	"\u001b[2J\u001b[31mred\u0007",
	"../../etc",
	"\ud800",
	"x".repeat(10_000),
	"__proto__",
	"constructor",
);
export const anything: fc.Arbitrary<unknown> = fc.oneof(
	fc.jsonValue({ maxDepth: 3 }),
	anyText,
	hostileText,
	fc.constantFrom(null, undefined, true, false, 0, -1, Number.NaN, 1e308, [], {}),
);

let serial = 0;
function id(prefix: string): string {
	serial++;
	return `${prefix}_${String(serial).padStart(7, "0")}`;
}

function event(
	type: string,
	properties: Record<string, unknown>,
	label: string,
	eventId: string | null = id("evt"),
): Call {
	return {
		hook: "event",
		args: [{ event: { ...(eventId === null ? {} : { id: eventId }), type, properties } }],
		label,
	};
}

export interface PromptSpec {
	synthetic?: boolean;
	metadata?: Record<string, unknown>;
	noBusy?: boolean;
}

/** A prompt as OpenCode sends it: `chat.message`, the user message, its part, busy. */
export function promptCalls(session: string, text: string, spec: PromptSpec = {}): Call[] {
	const messageId = id("msg");
	const message = {
		id: messageId,
		sessionID: session,
		role: "user",
		time: { created: 1 },
		agent: "build",
		model: MODEL,
	};
	const part = {
		id: id("prt"),
		sessionID: session,
		messageID: messageId,
		type: "text",
		text,
		...(spec.synthetic ? { synthetic: true } : {}),
		...(spec.metadata ? { metadata: spec.metadata } : {}),
	};
	const calls: Call[] = [
		{
			hook: "chat.message",
			args: [
				{ sessionID: session, agent: "build", model: MODEL },
				{ message, parts: [part] },
			],
			label: "prompt",
		},
		event("message.updated", { sessionID: session, info: message }, "prompt"),
		event("message.part.updated", { sessionID: session, part }, "prompt"),
	];
	if (!spec.noBusy) calls.push(event("session.status", { sessionID: session, status: { type: "busy" } }, "prompt"));
	return calls;
}

export interface StepSpec {
	finish?: string | null;
	error?: { name: string; data?: Record<string, unknown> };
	text?: string;
	tool?: string;
	tokens?: number;
}

/** One assistant step: the message, its parts, then with finish and tokens, then completed. */
export function stepCalls(session: string, spec: StepSpec = {}): Call[] {
	const messageId = id("msg");
	const base = {
		id: messageId,
		sessionID: session,
		role: "assistant",
		parentID: "msg_user",
		agent: "build",
		mode: "build",
		modelID: MODEL.modelID,
		providerID: MODEL.providerID,
		time: { created: 1 },
		tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
		cost: 0,
	};
	const calls: Call[] = [event("message.updated", { sessionID: session, info: base }, "step")];
	if (spec.text !== undefined) {
		const part = { id: id("prt"), sessionID: session, messageID: messageId, type: "text", text: spec.text };
		calls.push(event("message.part.updated", { sessionID: session, part }, "step"));
	}
	if (spec.tool !== undefined) {
		const part = {
			id: id("prt"),
			sessionID: session,
			messageID: messageId,
			type: "tool",
			tool: spec.tool,
			callID: id("call"),
		};
		for (const status of ["pending", "running", "completed"]) {
			calls.push(event("message.part.updated", { sessionID: session, part: { ...part, state: { status } } }, "step"));
		}
	}
	const tokens = { input: spec.tokens ?? 100, output: 20, reasoning: 0, cache: { read: 0, write: 0 } };
	const ended = spec.error ? { error: spec.error } : spec.finish === null ? {} : { finish: spec.finish ?? "stop" };
	const done = { ...base, tokens, ...ended };
	calls.push(event("message.updated", { sessionID: session, info: done }, "step"));
	calls.push(
		event("message.updated", { sessionID: session, info: { ...done, time: { created: 1, completed: 2 } } }, "step"),
	);
	return calls;
}

export function todoCalls(session: string, statuses: readonly string[], label = "todos"): Call[] {
	const todos = statuses.map((status, n) => ({ content: `Item ${n}`, status, priority: "medium" }));
	return [event("todo.updated", { sessionID: session, todos }, label)];
}

/** The end of a turn: `session.status` idle, then the deprecated `session.idle`. */
export function idleCalls(session: string, label = "idle"): Call[] {
	return [
		event("session.status", { sessionID: session, status: { type: "idle" } }, label),
		event("session.idle", { sessionID: session }, label),
	];
}

const ERROR_NAMES = [
	"MessageAbortedError",
	"AbortError",
	"APIError",
	"ProviderAuthError",
	"ContextOverflowError",
	"MessageOutputLengthError",
	"UnknownError",
] as const;

const statuses = fc.array(
	fc.oneof(
		{ weight: 6, arbitrary: fc.constantFrom("pending", "in_progress", "completed") },
		{ weight: 1, arbitrary: fc.constantFrom("cancelled", "blocked", "done", "") },
	),
	{ maxLength: 6 },
);

/** What OpenCode sends about one session, group by group, as it would. */
function groupArb(session: string): fc.Arbitrary<() => Call[]> {
	const s = session;
	return fc.oneof(
		{
			weight: 5,
			arbitrary: fc
				.tuple(
					fc.constantFrom("Do the list.", "Carry on.", "What next?"),
					fc.constantFrom<PromptSpec>(
						{},
						{},
						{},
						{ synthetic: true },
						{ metadata: { compaction_continue: true }, synthetic: true },
						{ metadata: { boulder: { kind: "nudge", key: "k-unknown" } } },
						{ metadata: { boulder: { kind: "answer" } }, noBusy: true },
					),
				)
				.map(
					([text, spec]) =>
						() =>
							promptCalls(s, text, spec),
				),
		},
		{
			weight: 6,
			arbitrary: fc
				.record({
					finish: fc.constantFrom<string | null>(
						"stop",
						"stop",
						"end_turn",
						"tool-calls",
						"length",
						"content-filter",
						"error",
						null,
					),
					text: fc.option(fc.constantFrom("Done.", "Which one do you want?", "Working."), { nil: undefined }),
					tool: fc.option(fc.constantFrom("edit", "write", "bash", "read", "apply_patch"), { nil: undefined }),
					error: fc.option(
						fc.constantFrom(...ERROR_NAMES).map((name) => ({ name, data: { message: "prompt is too long" } })),
						{ nil: undefined, freq: 6 },
					),
				})
				.map((spec) => () => stepCalls(s, spec)),
		},
		{ weight: 4, arbitrary: statuses.map((list) => () => todoCalls(s, list)) },
		{ weight: 5, arbitrary: fc.constant(() => idleCalls(s)) },
		{
			weight: 1,
			arbitrary: fc.constant(() => [event("session.status", { sessionID: s, status: { type: "busy" } }, "busy")]),
		},
		{
			weight: 1,
			arbitrary: fc.constant(() => [
				event("session.status", { sessionID: s, status: { type: "retry", attempt: 1 } }, "busy"),
			]),
		},
		{
			weight: 1,
			arbitrary: fc
				.constantFrom(...ERROR_NAMES)
				.map((name) => () => [
					event("session.error", { sessionID: s, error: { name, data: { message: "boom" } } }, "error"),
				]),
		},
		{
			weight: 1,
			arbitrary: fc
				.constantFrom("q_1", "q_2")
				.map((ask) => () => [
					event("question.asked", { id: ask, sessionID: s, questions: [{ question: "Which?" }] }, "ask"),
				]),
		},
		{
			weight: 1,
			arbitrary: fc
				.constantFrom("permission.asked", "permission.updated")
				.map((type) => () => [event(type, { id: "per_1", sessionID: s, permission: "bash", title: "rm *" }, "ask")]),
		},
		{
			weight: 1,
			arbitrary: fc
				.constantFrom(["question.replied", "q_1"], ["question.rejected", "q_2"], ["permission.replied", "per_1"])
				.map(([type, ask]) => () => [event(type as string, { sessionID: s, requestID: ask, reply: "once" }, "answer")]),
		},
		{
			weight: 1,
			arbitrary: fc.constantFrom("child", "deleted", "created", "compacted").map((what) => () => {
				const child = `${s}_child`;
				switch (what) {
					case "child":
						return [
							event("session.created", { sessionID: child, info: { id: child, parentID: s } }, "child"),
							event("session.status", { sessionID: child, status: { type: "busy" } }, "child"),
							...stepCalls(child, { text: "sub" }),
							...idleCalls(child, "child"),
						];
					case "deleted":
						return [event("session.deleted", { sessionID: s, info: { id: s } }, "deleted")];
					case "created":
						return [event("session.updated", { sessionID: s, info: { id: s, title: "t" } }, "created")];
					default:
						return [event("session.compacted", { sessionID: s }, "compacted")];
				}
			}),
		},
		{
			weight: 1,
			arbitrary: fc
				.tuple(
					fc.constantFrom("boulder", "boulder", "init", "review"),
					fc.oneof(
						fc.constantFrom("", "status", "stop", "go", "why", "why 3", "help", "stop --all"),
						anyText,
						hostileText,
					),
				)
				.map(([command, args]) => () => [
					{
						hook: "command.execute.before" as const,
						args: [{ command, sessionID: s, arguments: args }],
						label: "command",
					},
				]),
		},
		{
			weight: 1,
			arbitrary: fc
				.constantFrom("edit", "bash", "")
				.map((tool) => () => [
					{ hook: "tool.execute.before" as const, args: [{ tool, sessionID: s, callID: id("call") }], label: "tool" },
				]),
		},
	);
}

/** A mutation at any depth of a call's arguments: a field deleted, replaced, or its type changed. */
interface Mutation {
	at: number;
	op: "delete" | "replace";
	value: unknown;
}

const mutationArb: fc.Arbitrary<Mutation> = fc.record({
	at: fc.nat(),
	op: fc.constantFrom("delete" as const, "replace" as const),
	value: anything,
});

type Path = Array<string | number>;

/** Every path inside the arguments, but not an argument itself: OpenCode always hands its hooks objects. */
function pathsOf(value: unknown, prefix: Path = [], out: Path[] = [], depth = 0): Path[] {
	if (depth > 7 || typeof value !== "object" || value === null) return out;
	for (const [key, inner] of Object.entries(value)) {
		const here = [...prefix, Array.isArray(value) ? Number(key) : key];
		if (here.length > 1) out.push(here);
		pathsOf(inner, here, out, depth + 1);
	}
	return out;
}

/** A property of the value's own, never its prototype's (a generated key may be `__proto__`). */
function ownValue(value: unknown, key: string | number): unknown {
	if (typeof value !== "object" || value === null) return undefined;
	return Object.getOwnPropertyDescriptor(value, String(key))?.value;
}

export function mutate(args: unknown[], mutations: readonly Mutation[]): unknown[] {
	const copy = structuredClone(args) as unknown[];
	for (const mutation of mutations) {
		const paths = pathsOf(copy);
		if (paths.length === 0) break;
		const target = paths[mutation.at % paths.length] as Path;
		let parent: unknown = copy;
		for (const key of target.slice(0, -1)) parent = ownValue(parent, key);
		const last = String(target.at(-1));
		if (typeof parent !== "object" || parent === null) continue;
		if (mutation.op === "delete" && !Array.isArray(parent)) delete (parent as Record<string, unknown>)[last];
		else
			Object.defineProperty(parent, last, {
				value: mutation.value,
				enumerable: true,
				writable: true,
				configurable: true,
			});
	}
	return copy;
}

/**
 * A session's calls: turns as OpenCode sends them (a prompt, a list, other
 * groups at random, a step, an idle pair), one group in four with a call
 * mutated. With `midway`, the first turn's prompt is missing, as for a
 * plugin that loaded while the session was running.
 */
export function sessionCallsArb(session: string, groups: number, midway = false): fc.Arbitrary<Call[]> {
	const damaged = fc.tuple(
		groupArb(session),
		fc.oneof(
			{ weight: 3, arbitrary: fc.constant([]) },
			{
				weight: 1,
				arbitrary: fc.array(fc.tuple(fc.nat(9), fc.array(mutationArb, { minLength: 1, maxLength: 3 })), {
					minLength: 1,
					maxLength: 2,
				}),
			},
		),
	);
	const skeleton = (make: () => Call[]) => fc.constant<[() => Call[], Array<[number, Mutation[]]>]>([make, []]);
	const turn = fc
		.tuple(
			statuses.filter((list) => list.length > 0),
			fc.array(damaged, { maxLength: Math.max(0, groups - 4) }),
			damaged,
			fc.constantFrom<string | null>("stop", "stop", "end_turn", "tool-calls", "length"),
		)
		.chain(([list, middle, last, finish]) =>
			fc.tuple(
				skeleton(() => promptCalls(session, "Do the list.")),
				skeleton(() => todoCalls(session, list)),
				...middle.map((item) => fc.constant(item)),
				fc.constant(last),
				skeleton(() => stepCalls(session, { finish, text: "Done." })),
				skeleton(() => idleCalls(session)),
			),
		);
	return fc.array(turn, { minLength: 1, maxLength: 2 }).map((turns) =>
		turns
			.flatMap((groups, n) => (midway && n === 0 ? groups.slice(1) : groups))
			.flatMap(([make, damage]) => {
				const calls = make();
				for (const [which, mutations] of damage) {
					const n = which % calls.length;
					const call = calls[n] as Call;
					const label = call.label.startsWith("mutated ") ? call.label : `mutated ${call.label}`;
					calls[n] = { ...call, args: mutate(call.args, mutations), label };
				}
				return calls;
			}),
	);
}

/**
 * Garbage about a session: its prompts, replies and user messages broken so
 * that none can be read as a turn (checked by `turnLike`), among a real open
 * list and real idles. Such a session must never be nudged.
 */
export function garbageCallsArb(session: string, groups: number): fc.Arbitrary<Call[]> {
	const broken = fc
		.tuple(
			fc.constantFrom("prompt", "step", "user message"),
			fc.array(mutationArb, { minLength: 1, maxLength: 4 }),
			fc.nat(),
			anything,
		)
		.map(([kind, mutations, how, value]) => {
			const calls =
				kind === "prompt"
					? promptCalls(session, "Do it.")
					: kind === "step"
						? stepCalls(session, { text: "Done." })
						: promptCalls(session, "x").slice(1, 2);
			return calls
				.map((call) =>
					breakTurn({ ...call, args: mutate(call.args, mutations), label: `garbage ${call.label}` }, how, value),
				)
				.filter((call) => !turnLike(call, session));
		});
	const random = fc
		.tuple(
			fc.constantFrom(
				"message.updated",
				"message.part.updated",
				"session.status",
				"todo.updated",
				"session.error",
				"x.y",
			),
			anything,
			anything,
		)
		.map(([type, a, b]) =>
			[event(type, { sessionID: session, info: a, part: b, status: a, todos: b, error: a }, "garbage random")].filter(
				(call) => !turnLike(call, session),
			),
		);
	return fc
		.array(
			fc.oneof(
				{ weight: 4, arbitrary: broken },
				{ weight: 2, arbitrary: random },
				{ weight: 2, arbitrary: fc.constant(todoCalls(session, ["pending", "in_progress"], "garbage: open list")) },
				{ weight: 3, arbitrary: fc.constant(idleCalls(session, "garbage: idle")) },
			),
			{ minLength: 1, maxLength: groups },
		)
		.map((groups) => groups.flat());
}

/** Breaks what makes a call readable as a turn: the message itself, its id, its session or its role. */
function breakTurn(call: Call, how: number, value: unknown): Call {
	const args = structuredClone(call.args) as unknown[];
	const first = args[0];
	const holder =
		call.hook === "chat.message"
			? args[1]
			: isRecord(first) && isRecord(first.event)
				? first.event.properties
				: undefined;
	if (!isRecord(holder)) return { ...call, args };
	const field = call.hook === "chat.message" ? "message" : "info";
	const message = holder[field];
	const key = ["id", "sessionID", "role"][how % 4];
	if (key === undefined || !isRecord(message)) holder[field] = value;
	else if (key === "role") message.role = value === "user" || value === "assistant" ? "system" : value;
	else message[key] = typeof value === "string" ? 7 : value;
	return { ...call, args };
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A readable message: OpenCode's message shape with string id and session, from the user or the assistant. */
function readableMessage(
	value: unknown,
): { id: string; sessionID: string; role: string; finish: unknown; error: unknown } | null {
	if (!isRecord(value) || typeof value.id !== "string" || typeof value.sessionID !== "string") return null;
	if (value.role !== "user" && value.role !== "assistant") return null;
	return { id: value.id, sessionID: value.sessionID, role: value.role, finish: value.finish, error: value.error };
}

/** Whether a call could be read as (part of) a turn of anyone: a user prompt or message, or an assistant reply. */
export function turnLike(call: Call, _session: string): boolean {
	if (call.hook === "chat.message") {
		const output = call.args[1];
		return (
			isRecord(output) &&
			isRecord(output.message) &&
			output.message.role === "user" &&
			typeof output.message.id === "string"
		);
	}
	if (call.hook !== "event") return false;
	const input = call.args[0];
	const properties =
		isRecord(input) && isRecord(input.event) && isRecord(input.event.properties) ? input.event.properties : null;
	return properties !== null && readableMessage(properties.info) !== null;
}

/** The session a real user prompt names: `chat.message` of a user message whose parts are the user's own text. */
export function userPromptOf(call: Call): string | null {
	if (call.hook !== "chat.message") return null;
	const [input, output] = call.args;
	if (!isRecord(input) || typeof input.sessionID !== "string" || !isRecord(output)) return null;
	if (!isRecord(output.message) || output.message.role !== "user" || typeof output.message.id !== "string") return null;
	const parts = Array.isArray(output.parts) ? output.parts.filter(isRecord) : [];
	const texts = parts.filter((part) => part.type === "text");
	if (
		parts.some(
			(part) =>
				isRecord(part.metadata) && (part.metadata.boulder !== undefined || part.metadata.compaction_continue === true),
		)
	)
		return null;
	if (texts.length > 0 && texts.every((part) => part.synthetic === true)) return null;
	return input.sessionID;
}

/**
 * The session of a turn that ended: an assistant reply with a finish that
 * ends a turn (stop, end_turn, length, content-filter, error) or an error, or
 * a `session.error` naming an error. A turn that ended so may be continued
 * (after an error, once its backoff is over); one whose end is unknown may not.
 */
export function endedReplyOf(call: Call): string | null {
	if (call.hook !== "event") return null;
	const input = call.args[0];
	const event = isRecord(input) && isRecord(input.event) ? input.event : null;
	const properties = event && isRecord(event.properties) ? event.properties : null;
	if (event?.type === "session.error" && typeof properties?.sessionID === "string" && isRecord(properties.error)) {
		return properties.sessionID;
	}
	const message = readableMessage(properties?.info);
	if (message?.role !== "assistant") return null;
	const ends = ["stop", "end_turn", "length", "content-filter", "error"].includes(String(message.finish));
	return ends || (message.error !== undefined && message.error !== null) ? message.sessionID : null;
}

/** The session a non-empty `todo.updated` list names. */
export function listOf(call: Call): string | null {
	if (call.hook !== "event") return null;
	const input = call.args[0];
	if (!isRecord(input) || !isRecord(input.event) || input.event.type !== "todo.updated") return null;
	const properties = isRecord(input.event.properties) ? input.event.properties : null;
	if (!properties || typeof properties.sessionID !== "string") return null;
	return Array.isArray(properties.todos) && properties.todos.length > 0 ? properties.sessionID : null;
}

/** Calls about no session in particular: random JSON as events, unknown types, random inputs to every hook. */
export const strayCallArb: fc.Arbitrary<Call> = fc.oneof(
	{
		weight: 4,
		arbitrary: anything.map((value) => ({ hook: "event" as const, args: [{ event: value }], label: "random event" })),
	},
	{
		weight: 3,
		arbitrary: fc
			.tuple(
				fc.constantFrom(
					"message.part.delta",
					"server.connected",
					"lsp.updated",
					"file.edited",
					"session.diff",
					"message.removed",
					"installation.updated",
				),
				fc.dictionary(anyText, anything, { maxKeys: 4 }),
			)
			.map(([type, properties]) => event(type, properties, "unknown event type")),
	},
	{
		weight: 2,
		arbitrary: fc
			.tuple(
				fc.constantFrom(
					"event",
					"chat.message",
					"tool.execute.before",
					"command.execute.before",
					"config",
				) as fc.Arbitrary<HookName>,
				fc.dictionary(
					fc.constantFrom("event", "sessionID", "tool", "callID", "command", "arguments", "agent"),
					anything,
					{
						maxKeys: 4,
					},
				),
				fc.dictionary(fc.constantFrom("message", "parts"), anything, { maxKeys: 2 }),
			)
			.map(([hook, a, b]) => ({ hook, args: hook === "chat.message" ? [a, b] : [a], label: "random arguments" })),
	},
	{
		weight: 1,
		arbitrary: fc
			.record({ command: fc.oneof(fc.constant("boulder"), anyText), sessionID: anything, arguments: anything })
			.map((input) => ({
				hook: "command.execute.before" as const,
				args: [input],
				label: "random command",
			})),
	},
	{
		weight: 1,
		arbitrary: anything.map((value) => ({ hook: "config" as const, args: [value], label: "random config" })),
	},
);

/** Calls with huge or deep values, built on demand. */
export function hugeCalls(session: string): Call[] {
	const big = "é".repeat(2 * 1024 * 1024);
	let deep: unknown = 1;
	for (let n = 0; n < 20_000; n++) deep = { a: [deep] };
	const manyTodos = Array.from({ length: 50_000 }, (_, n) => ({
		content: `Item ${n}`,
		status: "pending",
		priority: "low",
	}));
	return [
		...promptCalls(session, big).map((call) => ({ ...call, label: "huge: big text" })),
		...stepCalls(session, { text: big }).map((call) => ({ ...call, label: "huge: big text" })),
		event("todo.updated", { sessionID: session, todos: manyTodos }, "huge: many items"),
		event("message.updated", { sessionID: session, info: deep }, "huge: deep value"),
		event("session.error", { sessionID: session, error: deep }, "huge: deep value"),
		event("todo.updated", { sessionID: session, todos: [deep] }, "huge: deep value"),
		{
			hook: "command.execute.before",
			args: [{ command: "boulder", sessionID: session, arguments: big }],
			label: "huge: big text",
		},
		{
			hook: "chat.message",
			args: [{ sessionID: session }, { message: deep, parts: [deep] }],
			label: "huge: deep value",
		},
		event(big, { sessionID: big }, "huge: big text", big),
	];
}
