/**
 * A scripted model server that speaks the Anthropic Messages API on 127.0.0.1,
 * so end-to-end tests can drive the real Claude Code binary offline and
 * deterministically. Every request is recorded for assertions.
 *
 * Claude Code sends two kinds of model calls: the agent loop ("main": the
 * tool list, subagents included) and side calls (prompt-type hooks, which
 * carry no tools; compaction, which asks for a summary; quota probes with a
 * tiny max_tokens). Only main calls consume scenario steps, so a scenario
 * reads like the turns of the conversation and does not break when the
 * harness adds a side call.
 *
 * Deferred tools: newer Claude Code (2.1.332) offers some tools (the todo
 * tools among them) by name only, in a system message, and loads a tool's
 * schema when the model calls `ToolSearch` with `select:<name>,…`; calling a
 * tool before that fails. The server plays a real model here: a scripted
 * step that calls a tool the request does not carry, while `ToolSearch` is
 * offered, is answered first with that `ToolSearch` call, and the step itself
 * answers the next main request. `mainRequests()` holds the request the
 * scenario saw (the one answered with `ToolSearch`); the request that then
 * gets the held step is kept apart (`loadRequests()`), so counts of requests
 * and nudges read as they would with the tool loaded already.
 *
 * Contract: Node built-ins only; `close()` must be awaited in `afterEach`.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type StopReason = "end_turn" | "tool_use" | "max_tokens";

export interface Usage {
	input_tokens: number;
	output_tokens: number;
	cache_creation_input_tokens: number;
	cache_read_input_tokens: number;
}

export interface ToolUseStep {
	name: string;
	input: Record<string, unknown>;
	/** Generated (`toolu_…`) when omitted. */
	id?: string;
}

/** One scripted assistant reply to a main request. */
export interface ReplyStep {
	text?: string;
	toolUses?: ToolUseStep[];
	/** Defaults to `tool_use` when there are tool uses, else `end_turn`. */
	stopReason?: StopReason;
	usage?: Partial<Usage>;
	/** Wait this long before answering (e.g. to interrupt a run mid-request). */
	delayMs?: number;
	/** Answer only once this settles: orders the reply after an event elsewhere (e.g. the parent's Stop). */
	after?: Promise<unknown>;
}

/** Answer a main request with an HTTP error instead of a message. */
export interface ErrorStep {
	error: { status: number; type?: string; message: string };
	delayMs?: number;
}

export type Step = ReplyStep | ErrorStep;

export interface TurnContext {
	/** 0-based index of this main request. */
	index: number;
	request: RecordedRequest;
}

/** A list is consumed one step per main request; a function decides each one. */
export type Scenario = readonly Step[] | ((turn: TurnContext) => Step);

export type RequestKind = "main" | "side" | "count_tokens" | "other";

export interface RecordedRequest {
	method: string;
	/** Path without the query string, e.g. `/v1/messages`. */
	path: string;
	query: Record<string, string>;
	headers: Record<string, string | string[] | undefined>;
	/** Parsed JSON body, or the raw text when it is not JSON, or undefined. */
	body: unknown;
	kind: RequestKind;
}

export interface ServerOptions {
	/** Reply once the scenario list is used up. Default: a plain `end_turn` text. */
	whenExhausted?: Step;
	/** Overrides how a `/v1/messages` body is told apart (main vs side). */
	classify?: (body: MessagesBody) => "main" | "side";
	/** Answers side calls. Default: `defaultSideReply`. */
	sideReply?: (request: RecordedRequest) => Step;
	/** Load a step's deferred tools with `ToolSearch` before calling them. Default true. */
	loadDeferredTools?: boolean;
}

export interface AnthropicServer {
	/** `http://127.0.0.1:PORT`, for `ANTHROPIC_BASE_URL`. */
	url: string;
	port: number;
	/** Every request in arrival order. */
	requests: RecordedRequest[];
	/** Main requests in arrival order (each consumed a scenario step). */
	mainRequests(): RecordedRequest[];
	/** How many main requests found the scenario list already used up. */
	exhaustedCount(): number;
	/** Main requests that came after a `ToolSearch` load and got the step held for them (not in `mainRequests()`). */
	loadRequests(): RecordedRequest[];
	close(): Promise<void>;
}

export interface MessagesBody {
	model?: string;
	max_tokens?: number;
	stream?: boolean;
	system?: unknown;
	tools?: { name?: string }[];
	messages?: { role: string; content: unknown }[];
	[key: string]: unknown;
}

export interface ContentBlock {
	type: string;
	[key: string]: unknown;
}

export const DEFAULT_USAGE: Usage = {
	input_tokens: 100,
	output_tokens: 10,
	cache_creation_input_tokens: 0,
	cache_read_input_tokens: 0,
};

const EXHAUSTED_REPLY: ReplyStep = { text: "Nothing more is scripted.", stopReason: "end_turn" };
const SIDE_REPLY_TEXT = "Scripted session";

export async function startAnthropicServer(scenario: Scenario, options: ServerOptions = {}): Promise<AnthropicServer> {
	const requests: RecordedRequest[] = [];
	const main: RecordedRequest[] = [];
	let exhausted = 0;
	const classify = options.classify ?? classifyMessages;
	const sideReply = options.sideReply ?? defaultSideReply;

	const loads: RecordedRequest[] = [];
	let held: Step | null = null;
	const scripted = (request: RecordedRequest): Step => {
		const index = main.length - 1;
		if (typeof scenario === "function") return scenario({ index, request });
		const step = scenario[index];
		if (step) return step;
		exhausted++;
		return options.whenExhausted ?? EXHAUSTED_REPLY;
	};
	const nextStep = (request: RecordedRequest): Step => {
		if (held !== null) {
			const step = held;
			held = null;
			loads.push(request);
			return step;
		}
		main.push(request);
		const step = scripted(request);
		const unloaded = options.loadDeferredTools === false ? [] : unloadedTools(step, request.body as MessagesBody);
		if (unloaded.length === 0) return step;
		held = step;
		return { toolUses: [{ name: TOOL_SEARCH, input: { query: `select:${unloaded.join(",")}` } }] };
	};

	const server = createServer((req, res) => {
		void handle(req, res).catch((error: unknown) => {
			res.writeHead(500, { "content-type": "application/json" });
			res.end(JSON.stringify(errorBody("api_error", String(error))));
		});
	});

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const request = await record(req, classify);
		requests.push(request);
		if (request.kind === "main") return answer(res, request, nextStep(request));
		if (request.kind === "side") return answer(res, request, sideReply(request));
		if (request.kind === "count_tokens") return sendJson(res, 200, { input_tokens: DEFAULT_USAGE.input_tokens });
		// HEAD / is Claude Code's connectivity probe; everything else gets a harmless empty answer.
		if (req.method === "HEAD") return void res.writeHead(200).end();
		return sendJson(res, 200, {});
	}

	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const port = (server.address() as AddressInfo).port;
	return {
		url: `http://127.0.0.1:${port}`,
		port,
		requests,
		mainRequests: () => [...main],
		exhaustedCount: () => exhausted,
		loadRequests: () => [...loads],
		close: () => closeServer(server),
	};
}

const TOOL_SEARCH = "ToolSearch";

/**
 * The tools a step calls that the request does not carry, when the harness
 * offers `ToolSearch` to load them (a deferred tool is named in a system
 * message, not in `tools`, until it is loaded). A step meant to call an
 * unknown tool on purpose still gets through when no `ToolSearch` is offered.
 */
export function unloadedTools(step: Step, body: MessagesBody): string[] {
	if ("error" in step || !step.toolUses?.length) return [];
	const offered = new Set((body.tools ?? []).map((tool) => tool.name));
	if (!offered.has(TOOL_SEARCH)) return [];
	const deferred = deferredToolNames(body);
	return [...new Set(step.toolUses.map((use) => use.name))].filter((name) => !offered.has(name) && deferred.has(name));
}

/** The tool names a request lists as deferred (one per line after "deferred tools … ToolSearch"). */
export function deferredToolNames(body: MessagesBody): Set<string> {
	const names = new Set<string>();
	for (const text of [...stringsIn(body.system), ...stringsIn(body.messages)]) {
		const at = text.search(/deferred tools[^\n]*ToolSearch/);
		if (at < 0) continue;
		const lines = text.slice(at).split("\n").slice(1);
		for (const line of lines) {
			const name = line.trim();
			if (!/^[A-Za-z_][\w-]*$/.test(name)) {
				if (name === "" && names.size === 0) continue;
				break;
			}
			names.add(name);
		}
	}
	return names;
}

/**
 * Main agent-loop calls carry the tool list. Side calls carry none (prompt
 * hooks), ask for very few tokens (probes), or are compaction: same tools as
 * the main loop, but the last user message asks for an analysis and a summary.
 */
export function classifyMessages(body: MessagesBody): "main" | "side" {
	const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
	const tiny = typeof body.max_tokens === "number" && body.max_tokens < 1024;
	if (!hasTools || tiny) return "side";
	return isCompaction(body) ? "side" : "main";
}

function isCompaction(body: MessagesBody): boolean {
	const text = lastUserTextOf(body.messages ?? []);
	return text.includes("<analysis>") && text.includes("<summary>");
}

/**
 * A reply any side call can live with: a valid object when a JSON schema is
 * demanded (prompt hooks ask for one), a summary block for compaction, else text.
 */
export function defaultSideReply(request: RecordedRequest): Step {
	const body = request.body as MessagesBody;
	const schema = jsonSchemaOf(body);
	if (schema !== undefined) return { text: JSON.stringify(sampleOf(schema)) };
	if (isCompaction(body)) return { text: `<summary>${SIDE_REPLY_TEXT}</summary>` };
	return { text: SIDE_REPLY_TEXT };
}

function jsonSchemaOf(body: MessagesBody): unknown {
	const config = body.output_config;
	if (!isObject(config) || !isObject(config.format)) return undefined;
	return config.format.type === "json_schema" ? config.format.schema : undefined;
}

/** Smallest value of the schema's shape: required properties filled with neutral values. */
function sampleOf(schema: unknown): unknown {
	if (!isObject(schema)) return null;
	switch (schema.type) {
		case "object": {
			const properties = isObject(schema.properties) ? schema.properties : {};
			const required = Array.isArray(schema.required) ? schema.required.map(String) : Object.keys(properties);
			return Object.fromEntries(required.map((key) => [key, sampleOf(properties[key])]));
		}
		case "boolean":
			return true;
		case "string":
			return SIDE_REPLY_TEXT;
		case "number":
		case "integer":
			return 0;
		case "array":
			return [];
		default:
			return null;
	}
}

async function record(
	req: IncomingMessage,
	classify: (body: MessagesBody) => "main" | "side",
): Promise<RecordedRequest> {
	const url = new URL(req.url ?? "/", "http://127.0.0.1");
	const text = await readBody(req);
	const body = parseJson(text);
	return {
		method: req.method ?? "GET",
		path: url.pathname,
		query: Object.fromEntries(url.searchParams),
		headers: { ...req.headers },
		body,
		kind: kindOf(req.method, url.pathname, body, classify),
	};
}

function kindOf(
	method: string | undefined,
	path: string,
	body: unknown,
	classify: (body: MessagesBody) => "main" | "side",
): RequestKind {
	if (method !== "POST") return "other";
	if (path.endsWith("/messages/count_tokens")) return "count_tokens";
	if (!path.endsWith("/messages") || !isObject(body)) return "other";
	return classify(body as MessagesBody);
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
		req.on("error", reject);
	});
}

function parseJson(text: string): unknown {
	if (text === "") return undefined;
	try {
		return JSON.parse(text);
	} catch {
		// Not JSON: keep the raw text so a test can still look at it.
		return text;
	}
}

async function answer(res: ServerResponse, request: RecordedRequest, step: Step): Promise<void> {
	if (step.delayMs) await sleep(step.delayMs);
	if ("after" in step) await step.after;
	if ("error" in step) {
		const { status, type, message } = step.error;
		return sendJson(res, status, errorBody(type ?? defaultErrorType(status), message));
	}
	const body = request.body as MessagesBody;
	const message = buildMessage(step, body.model ?? "claude-scripted");
	if (body.stream) return streamMessage(res, message);
	return sendJson(res, 200, message);
}

interface BuiltMessage {
	id: string;
	type: "message";
	role: "assistant";
	model: string;
	content: ContentBlock[];
	stop_reason: StopReason;
	stop_sequence: null;
	usage: Usage;
}

function buildMessage(step: ReplyStep, model: string): BuiltMessage {
	const content: ContentBlock[] = [];
	if (step.text !== undefined) content.push({ type: "text", text: step.text });
	for (const use of step.toolUses ?? []) {
		content.push({ type: "tool_use", id: use.id ?? newId("toolu"), name: use.name, input: use.input });
	}
	// An empty content array makes the harness treat the reply as broken.
	if (content.length === 0) content.push({ type: "text", text: "" });
	const stopReason = step.stopReason ?? (step.toolUses?.length ? "tool_use" : "end_turn");
	return {
		id: newId("msg"),
		type: "message",
		role: "assistant",
		model,
		content,
		stop_reason: stopReason,
		stop_sequence: null,
		usage: { ...DEFAULT_USAGE, ...step.usage },
	};
}

function streamMessage(res: ServerResponse, message: BuiltMessage): void {
	res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
	const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
	const { usage } = message;
	send("message_start", {
		type: "message_start",
		message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
	});
	message.content.forEach((block, index) => {
		for (const [event, data] of blockEvents(block, index)) send(event, data);
	});
	send("message_delta", {
		type: "message_delta",
		delta: { stop_reason: message.stop_reason, stop_sequence: null },
		usage,
	});
	send("message_stop", { type: "message_stop" });
	res.end();
}

function blockEvents(block: ContentBlock, index: number): [string, unknown][] {
	const stop: [string, unknown] = ["content_block_stop", { type: "content_block_stop", index }];
	if (block.type === "tool_use") {
		const start = { type: "tool_use", id: block.id, name: block.name, input: {} };
		const partial = JSON.stringify(block.input);
		return [
			["content_block_start", { type: "content_block_start", index, content_block: start }],
			...splitInTwo(partial).map((part): [string, unknown] => [
				"content_block_delta",
				{ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: part } },
			]),
			stop,
		];
	}
	const text = String(block.text ?? "");
	return [
		["content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }],
		...splitInTwo(text).map((part): [string, unknown] => [
			"content_block_delta",
			{ type: "content_block_delta", index, delta: { type: "text_delta", text: part } },
		]),
		stop,
	];
}

/** Two deltas per block, so the harness's delta accumulation is really exercised. */
function splitInTwo(text: string): string[] {
	if (text.length < 2) return [text];
	const middle = Math.floor(text.length / 2);
	return [text.slice(0, middle), text.slice(middle)];
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { "content-type": "application/json" });
	res.end(JSON.stringify(body));
}

function errorBody(type: string, message: string) {
	return { type: "error", error: { type, message } };
}

function defaultErrorType(status: number): string {
	if (status === 400) return "invalid_request_error";
	if (status === 401) return "authentication_error";
	if (status === 429) return "rate_limit_error";
	if (status === 529) return "overloaded_error";
	return "api_error";
}

function newId(prefix: string): string {
	return `${prefix}_${randomBytes(12).toString("hex")}`;
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

function closeServer(server: Server): Promise<void> {
	// A killed harness can leave keep-alive sockets open; close them so tests end.
	server.closeAllConnections();
	return new Promise((resolve) => server.close(() => resolve()));
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---- inspection helpers -------------------------------------------------

function messagesOf(request: RecordedRequest): { role: string; content: unknown }[] {
	const body = request.body;
	if (!isObject(body) || !Array.isArray(body.messages)) return [];
	return body.messages as { role: string; content: unknown }[];
}

function blocksOf(content: unknown): ContentBlock[] {
	if (typeof content === "string") return [{ type: "text", text: content }];
	if (!Array.isArray(content)) return [];
	return content.filter((block): block is ContentBlock => isObject(block) && typeof block.type === "string");
}

/** Text blocks of the request's last user message, joined by newlines (tool_result blocks excluded). */
export function lastUserText(request: RecordedRequest): string {
	return lastUserTextOf(messagesOf(request));
}

function lastUserTextOf(messages: readonly { role: string; content: unknown }[]): string {
	const users = messages.filter((message) => message.role === "user");
	const last = users[users.length - 1];
	if (!last) return "";
	return blocksOf(last.content)
		.filter((block) => block.type === "text")
		.map((block) => String(block.text))
		.join("\n");
}

/**
 * Whether the request opens a turn of the harness's own that brings a
 * background task's end (`<task-notification>`), rather than going on with the
 * agent's turn: what it carries since the last assistant message is the
 * notification and no tool result. Claude Code 2.1.332 runs an Agent call in
 * the background; a subagent that ends while the parent's turn still runs has
 * its notification ride on the parent's next request (beside a tool result),
 * one that ends after the parent's turn gets a turn of its own. Which of the
 * two happens is a race inside the harness, so a scenario that counts the
 * agent's turns leaves these out.
 */
export function isTaskNotificationTurn(request: RecordedRequest): boolean {
	const messages = messagesOf(request);
	const lastAssistant = messages.map((message) => message.role).lastIndexOf("assistant");
	if (lastAssistant < 0) return false;
	const blocks = messages.slice(lastAssistant + 1).flatMap((message) => blocksOf(message.content));
	if (blocks.some((block) => block.type === "tool_result")) return false;
	return blocks.some((block) => block.type === "text" && String(block.text).includes("<task-notification>"));
}

/** Whether the request comes from a subagent (Agent/Task tool): its billing header says so. */
export function isSubagentRequest(request: RecordedRequest): boolean {
	const body = request.body;
	if (!isObject(body)) return false;
	return stringsIn(body.system).some((text) => text.includes("cc_is_subagent=true"));
}

export interface ToolResult {
	tool_use_id: string;
	/** The result's text (text parts joined when the content is a list). */
	text: string;
	is_error: boolean;
}

/** Every tool_result block in the request's history, oldest first. */
export function toolResults(request: RecordedRequest): ToolResult[] {
	return messagesOf(request)
		.filter((message) => message.role === "user")
		.flatMap((message) => blocksOf(message.content))
		.filter((block) => block.type === "tool_result")
		.map((block) => ({
			tool_use_id: String(block.tool_use_id),
			text: blocksOf(block.content)
				.filter((part) => part.type === "text")
				.map((part) => String(part.text))
				.join("\n"),
			is_error: block.is_error === true,
		}));
}

/** Names of the tools offered in the request. */
export function toolNames(request: RecordedRequest): string[] {
	const body = request.body;
	if (!isObject(body) || !Array.isArray(body.tools)) return [];
	return body.tools.map((tool) => (isObject(tool) ? String(tool.name) : ""));
}

/** Whether `needle` occurs in any string of any main request's messages (system prompt excluded). */
export function reachedModel(server: Pick<AnthropicServer, "mainRequests">, needle: string): boolean {
	return server.mainRequests().some((request) => stringsIn(messagesOf(request)).some((text) => text.includes(needle)));
}

/** Every string value nested in `value`, so a search is not fooled by JSON escaping. */
export function stringsIn(value: unknown): string[] {
	if (typeof value === "string") return [value];
	if (Array.isArray(value)) return value.flatMap(stringsIn);
	if (isObject(value)) return Object.values(value).flatMap(stringsIn);
	return [];
}
