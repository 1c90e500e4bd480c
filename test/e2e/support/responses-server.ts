/**
 * A scripted model server that speaks the OpenAI Responses API (streaming
 * server-sent events) on 127.0.0.1, so end-to-end tests can drive the real
 * Codex CLI offline and deterministically. Every request is recorded.
 *
 * Codex sends the agent's turns as `POST /v1/responses` with its tool list
 * ("main" requests, subagents' included); anything else it might ask (a
 * request without tools, say) is a "side" request that gets a short text and
 * consumes no step, so a scenario reads like the turns of the conversation.
 *
 * Contract: Node built-ins only; `close()` must be awaited in `afterEach`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FunctionCallStep {
	name: string;
	/**
	 * A function tool's arguments (an object is JSON-encoded), or the raw
	 * input of a freeform tool (`custom: true`), such as `apply_patch`'s patch.
	 */
	args: Record<string, unknown> | string;
	/** A freeform ("custom") tool call rather than a function call. */
	custom?: boolean;
	/** The namespace of a namespaced tool (`collaboration` for `spawn_agent`). */
	namespace?: string;
	/** Generated (`call_<n>`) when omitted. */
	callId?: string;
}

export interface Usage {
	input: number;
	cached: number;
	output: number;
}

/** One scripted reply to a main request. */
export interface ReplyStep {
	text?: string;
	calls?: FunctionCallStep[];
	usage?: Partial<Usage>;
	/** Wait this long before answering (a test can interrupt the run meanwhile). */
	delayMs?: number;
}

/** Answer a main request with an HTTP error instead of a response. */
export interface ErrorStep {
	error: { status: number; message: string; code?: string };
}

export type Step = ReplyStep | ErrorStep;

export interface TurnContext {
	/** 0-based index of this main request. */
	index: number;
	request: RecordedRequest;
}

/** A list is consumed one step per main request; a function decides each one. */
export type Scenario = readonly Step[] | ((turn: TurnContext) => Step);

export interface RecordedRequest {
	method: string;
	path: string;
	headers: Record<string, string | string[] | undefined>;
	/** Parsed JSON body, or undefined when it was not JSON. */
	body: ResponsesBody | undefined;
	main: boolean;
}

export interface InputItem {
	type?: string;
	role?: string;
	content?: unknown;
	name?: string;
	arguments?: string;
	call_id?: string;
	output?: unknown;
	[key: string]: unknown;
}

export interface ResponsesBody {
	model?: string;
	instructions?: string;
	input?: InputItem[];
	tools?: { type?: string; name?: string; [key: string]: unknown }[];
	stream?: boolean;
	[key: string]: unknown;
}

export interface ServerOptions {
	/** Reply once the scenario list is used up. Default: a short final text. */
	whenExhausted?: Step;
}

export interface ResponsesServer {
	/** `http://127.0.0.1:PORT/v1`, for a model provider's `base_url`. */
	url: string;
	requests: RecordedRequest[];
	/** Main requests in arrival order (each consumed a step). */
	mainRequests(): RecordedRequest[];
	/** How many main requests found the scenario list already used up. */
	exhaustedCount(): number;
	close(): Promise<void>;
}

export const DEFAULT_USAGE: Usage = { input: 100, cached: 0, output: 10 };

const EXHAUSTED: ReplyStep = { text: "Nothing more is scripted." };

export async function startResponsesServer(scenario: Scenario, options: ServerOptions = {}): Promise<ResponsesServer> {
	const requests: RecordedRequest[] = [];
	const main: RecordedRequest[] = [];
	const open = new Set<ServerResponse>();
	let exhausted = 0;
	let serial = 0;

	const nextStep = (request: RecordedRequest): Step => {
		const index = main.length;
		main.push(request);
		if (typeof scenario === "function") return scenario({ index, request });
		const step = scenario[index];
		if (step) return step;
		exhausted++;
		return options.whenExhausted ?? EXHAUSTED;
	};

	const server = createServer((req, res) => {
		res.on("error", () => undefined);
		void handle(req, res).catch((error: unknown) => {
			if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
			res.end(JSON.stringify({ error: { message: String(error), type: "server_error" } }));
		});
	});

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname.replace(/\/+$/, "");
		const raw = await readBody(req);
		let body: ResponsesBody | undefined;
		try {
			body = raw === "" ? undefined : (JSON.parse(raw) as ResponsesBody);
		} catch {
			body = undefined;
		}
		if (req.method === "GET" && path.endsWith("/models")) {
			sendJson(res, 200, { object: "list", data: [] });
			return;
		}
		if (req.method !== "POST" || !path.endsWith("/responses")) {
			sendJson(res, 404, { error: { message: `no route ${req.method} ${path}`, type: "not_found" } });
			return;
		}
		const isMain = (body?.tools?.length ?? 0) > 0;
		const record: RecordedRequest = { method: req.method, path, headers: req.headers, body, main: isMain };
		requests.push(record);
		const step: Step = isMain ? nextStep(record) : { text: "Scripted side answer." };
		if ("error" in step) {
			sendJson(res, step.error.status, {
				error: { message: step.error.message, type: "invalid_request_error", code: step.error.code ?? null },
			});
			return;
		}
		if (step.delayMs && step.delayMs > 0 && (await closedWithin(res, step.delayMs))) return;
		streamReply(res, step, body?.model ?? "test-model", `resp_${++serial}`);
	}

	/** Waits `ms`; true when the client hung up meanwhile (an interrupted turn). */
	function closedWithin(res: ServerResponse, ms: number): Promise<boolean> {
		open.add(res);
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				res.off("close", onClose);
				open.delete(res);
				resolve(false);
			}, ms);
			const onClose = () => {
				clearTimeout(timer);
				open.delete(res);
				resolve(true);
			};
			res.once("close", onClose);
		});
	}

	let calls = 0;
	function streamReply(res: ServerResponse, step: ReplyStep, model: string, id: string): void {
		res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
		let sequence = 0;
		const send = (type: string, data: Record<string, unknown>) =>
			res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
		const shell = { id, object: "response", created_at: Math.floor(Date.now() / 1000), model };
		send("response.created", { response: { ...shell, status: "in_progress", output: [] } });
		const output: Record<string, unknown>[] = [];
		if (step.text !== undefined) {
			const itemId = `msg_${id}`;
			const index = output.length;
			const part = { type: "output_text", text: "", annotations: [] };
			send("response.output_item.added", {
				output_index: index,
				item: { id: itemId, type: "message", status: "in_progress", role: "assistant", content: [] },
			});
			send("response.content_part.added", { item_id: itemId, output_index: index, content_index: 0, part });
			for (const piece of step.text.match(/\S+\s*|\s+/g) ?? [step.text]) {
				send("response.output_text.delta", { item_id: itemId, output_index: index, content_index: 0, delta: piece });
			}
			send("response.output_text.done", { item_id: itemId, output_index: index, content_index: 0, text: step.text });
			const item = {
				id: itemId,
				type: "message",
				status: "completed",
				role: "assistant",
				content: [{ ...part, text: step.text }],
			};
			send("response.content_part.done", {
				item_id: itemId,
				output_index: index,
				content_index: 0,
				part: item.content[0],
			});
			send("response.output_item.done", { output_index: index, item });
			output.push(item);
		}
		for (const call of step.calls ?? []) {
			const index = output.length;
			const args = typeof call.args === "string" ? call.args : JSON.stringify(call.args);
			const callId = call.callId ?? `call_${++calls}`;
			const type = call.custom ? "custom_tool_call" : "function_call";
			const field = call.custom ? "input" : "arguments";
			const events = call.custom ? "response.custom_tool_call_input" : "response.function_call_arguments";
			const base = {
				id: `fc_${id}_${index}`,
				type,
				name: call.name,
				call_id: callId,
				...(call.namespace ? { namespace: call.namespace } : {}),
			};
			send("response.output_item.added", {
				output_index: index,
				item: { ...base, [field]: "", status: "in_progress" },
			});
			send(`${events}.delta`, { item_id: base.id, output_index: index, delta: args });
			send(`${events}.done`, { item_id: base.id, output_index: index, [field]: args });
			const item = { ...base, [field]: args, status: "completed" };
			send("response.output_item.done", { output_index: index, item });
			output.push(item);
		}
		const usage = { ...DEFAULT_USAGE, ...step.usage };
		send("response.completed", {
			response: {
				...shell,
				status: "completed",
				output,
				usage: {
					input_tokens: usage.input,
					input_tokens_details: { cached_tokens: usage.cached },
					output_tokens: usage.output,
					output_tokens_details: { reasoning_tokens: 0 },
					total_tokens: usage.input + usage.output,
				},
			},
		});
		res.end();
	}

	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		mainRequests: () => [...main],
		exhaustedCount: () => exhausted,
		close: async () => {
			for (const res of open) res.destroy();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** The text of every user message of a request's input, in order. */
export function userTexts(request: RecordedRequest): string[] {
	return (request.body?.input ?? [])
		.filter((item) => (item.type === undefined || item.type === "message") && item.role === "user")
		.map((item) => contentText(item.content));
}

/** The text of the request's last user message ("" when it has none). */
export function lastUserText(request: RecordedRequest): string {
	return userTexts(request).at(-1) ?? "";
}

/** The input items after the last user message: what the model answers now. */
export function tailAfterLastUser(request: RecordedRequest): InputItem[] {
	const input = request.body?.input ?? [];
	const last = input.findLastIndex((item) => item.role === "user");
	return input.slice(last + 1);
}

/** The names of the tools a request offers. */
export function toolNames(request: RecordedRequest): string[] {
	return (request.body?.tools ?? []).map((tool) => tool.name ?? tool.type ?? "");
}

/** Plain text of a message's content (a string, or a list of parts with `text`). */
export function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((part) =>
			typeof part === "object" && part !== null && typeof (part as { text?: unknown }).text === "string"
				? (part as { text: string }).text
				: "",
		)
		.join("");
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
	res.writeHead(status, { "content-type": "application/json" });
	res.end(JSON.stringify(value));
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
		req.on("error", reject);
	});
}
