// A scripted model server speaking the OpenAI-compatible chat completions API
// on 127.0.0.1, so the real harness binaries can run offline and every turn is
// decided by the test. Node built-ins only.
//
// Contract: a "main" request is one that offers tools (an agent turn); each one
// consumes the next scripted step. Requests without tools (title generation,
// summaries) are "side" requests: they get a generic answer and consume nothing.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter";

export interface ToolCallSpec {
	name: string;
	/** Tool arguments; an object is JSON-encoded, a string is sent as is. */
	args: Record<string, unknown> | string;
	/** Call id; defaults to a unique `call_<n>`. */
	id?: string;
}

export interface UsageSpec {
	promptTokens: number;
	completionTokens: number;
	cachedTokens: number;
}

export interface ModelStep {
	text?: string;
	toolCalls?: ToolCallSpec[];
	/** Defaults to `tool_calls` when the step has tool calls, else `stop`. */
	finishReason?: FinishReason;
	usage?: Partial<UsageSpec>;
	/** Wait this long before answering (lets a test abort mid-turn). */
	delayMs?: number;
	/** Answer with this HTTP error instead of a completion. */
	error?: { status: number; message: string; type?: string; code?: string };
}

export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
	[key: string]: unknown;
}

export interface ChatRequestBody {
	model?: string;
	messages?: ChatMessage[];
	tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
	stream?: boolean;
	[key: string]: unknown;
}

export interface RecordedRequest {
	/** Position among all chat completion requests, from 0. */
	index: number;
	/** Position among main requests, from 0; undefined for side requests. */
	mainIndex: number | undefined;
	main: boolean;
	method: string;
	path: string;
	headers: Record<string, string | string[] | undefined>;
	body: ChatRequestBody;
	/** The step that answered it (main requests only). */
	step: ModelStep | undefined;
}

export interface StepContext {
	request: RecordedRequest;
	/** Same as `request.mainIndex`. */
	index: number;
	server: ScriptedModelServer;
}

/** A list of steps, consumed in order, or a function deciding each main reply. */
export type Scenario = ModelStep[] | ((ctx: StepContext) => ModelStep | Promise<ModelStep>);

export interface ModelServerOptions {
	scenario?: Scenario;
	/** Answer for main requests once a step list is used up. Default: text "Done." with finish `stop`. */
	fallback?: ModelStep;
	/** Text answering side requests. */
	sideText?: string;
	/** Decides which requests are main; default: the request offers at least one tool. */
	isMain?: (body: ChatRequestBody) => boolean;
	/** Model ids listed by `GET /v1/models`. */
	models?: string[];
}

const defaultUsage: UsageSpec = { promptTokens: 100, completionTokens: 20, cachedTokens: 0 };

export class ScriptedModelServer {
	readonly requests: RecordedRequest[] = [];
	/** Main requests answered by the fallback because the step list was used up. */
	overruns = 0;
	private scenario: Scenario;
	private stepCursor = 0;
	private callCounter = 0;
	private readonly waiters = new Set<() => void>();
	private readonly openResponses = new Set<ServerResponse>();
	private readonly timers = new Set<NodeJS.Timeout>();

	private constructor(
		private readonly server: Server,
		readonly port: number,
		private readonly options: ModelServerOptions,
	) {
		this.scenario = options.scenario ?? [];
	}

	static async start(options: ModelServerOptions = {}): Promise<ScriptedModelServer> {
		const server = createServer();
		await new Promise<void>((resolve, reject) => {
			server.once("error", reject);
			server.listen(0, "127.0.0.1", () => resolve());
		});
		const port = (server.address() as AddressInfo).port;
		const instance = new ScriptedModelServer(server, port, options);
		server.on("request", (req, res) => {
			// A client that hangs up mid-answer (an aborted turn) must not crash the test process.
			res.on("error", () => undefined);
			instance.handle(req, res).catch((error: unknown) => {
				if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
				res.end(JSON.stringify({ error: { message: String(error), type: "server_error" } }));
			});
		});
		return instance;
	}

	/** Base URL for an OpenAI-compatible client, ending in `/v1`. */
	get baseUrl(): string {
		return `http://127.0.0.1:${this.port}/v1`;
	}

	/** Replaces the scenario and restarts the step list from its first step. */
	setScenario(scenario: Scenario): void {
		this.scenario = scenario;
		this.stepCursor = 0;
	}

	/** Forgets recorded requests (the scenario position is kept). */
	clearRequests(): void {
		this.requests.length = 0;
		this.overruns = 0;
	}

	mainRequests(): RecordedRequest[] {
		return this.requests.filter((r) => r.main);
	}

	sideRequests(): RecordedRequest[] {
		return this.requests.filter((r) => !r.main);
	}

	/** Text of the last user message of a request (default: the last main request). */
	lastUserText(request: RecordedRequest | undefined = this.mainRequests().at(-1)): string | undefined {
		const messages = request?.body.messages ?? [];
		for (let i = messages.length - 1; i >= 0; i--) {
			const message = messages[i];
			if (message?.role === "user") return contentText(message.content);
		}
		return undefined;
	}

	/** Texts of all user messages of a request (default: the last main request). */
	userTexts(request: RecordedRequest | undefined = this.mainRequests().at(-1)): string[] {
		return (request?.body.messages ?? []).filter((m) => m.role === "user").map((m) => contentText(m.content));
	}

	/** Tool results (role `tool` messages) of a request (default: the last main request). */
	toolResults(
		request: RecordedRequest | undefined = this.mainRequests().at(-1),
	): Array<{ toolCallId: string | undefined; content: string }> {
		return (request?.body.messages ?? [])
			.filter((m) => m.role === "tool")
			.map((m) => ({ toolCallId: m.tool_call_id, content: contentText(m.content) }));
	}

	/** Names of the tools offered in a request (default: the last main request). */
	toolNames(request: RecordedRequest | undefined = this.mainRequests().at(-1)): string[] {
		return (request?.body.tools ?? []).map((t) => t.function.name);
	}

	/** Whether `needle` appeared in any message of any request, optionally only in messages of one role. */
	reached(needle: string, options: { role?: string; mainOnly?: boolean } = {}): boolean {
		return this.requests.some(
			(r) =>
				(!options.mainOnly || r.main) &&
				(r.body.messages ?? []).some(
					(m) => (!options.role || m.role === options.role) && contentText(m.content).includes(needle),
				),
		);
	}

	/** Number of main requests whose last user message contains `needle`. */
	countUserTurnsWith(needle: string): number {
		return this.mainRequests().filter((r) => this.lastUserText(r)?.includes(needle)).length;
	}

	/** Resolves once `predicate` holds (checked on every request), or rejects after `timeoutMs`. */
	async waitFor(predicate: (server: ScriptedModelServer) => boolean, timeoutMs = 20_000): Promise<void> {
		if (predicate(this)) return;
		await new Promise<void>((resolve, reject) => {
			const check = () => {
				if (!predicate(this)) return;
				cleanup();
				resolve();
			};
			const timer = setTimeout(() => {
				cleanup();
				reject(new Error(`model server: condition not met within ${timeoutMs} ms (${this.describe()})`));
			}, timeoutMs);
			const cleanup = () => {
				clearTimeout(timer);
				this.waiters.delete(check);
			};
			this.waiters.add(check);
		});
	}

	/** Resolves once at least `count` main requests arrived. */
	waitForMainRequests(count: number, timeoutMs?: number): Promise<void> {
		return this.waitFor((s) => s.mainRequests().length >= count, timeoutMs);
	}

	/** One line per request, for failure messages. */
	describe(): string {
		return (
			this.requests
				.map(
					(r) => `#${r.index}${r.main ? ` main${r.mainIndex}` : " side"} user=${JSON.stringify(this.lastUserText(r))}`,
				)
				.join("; ") || "no requests"
		);
	}

	async close(): Promise<void> {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		for (const res of this.openResponses) res.destroy();
		this.openResponses.clear();
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? "/", "http://127.0.0.1");
		const path = url.pathname.replace(/\/+$/, "");
		if (req.method === "GET" && path.endsWith("/models")) {
			const ids = this.options.models ?? ["m", "small"];
			sendJson(res, 200, {
				object: "list",
				data: ids.map((id) => ({ id, object: "model", created: 0, owned_by: "boulder-test" })),
			});
			return;
		}
		if (req.method === "POST" && path.endsWith("/chat/completions")) {
			const raw = await readBody(req);
			let body: ChatRequestBody;
			try {
				body = JSON.parse(raw) as ChatRequestBody;
			} catch {
				sendJson(res, 400, { error: { message: "invalid JSON body", type: "invalid_request_error" } });
				return;
			}
			await this.answerChat(req, res, path, body);
			return;
		}
		if (req.method === "HEAD" || (req.method === "GET" && (path === "" || path === "/v1"))) {
			res.writeHead(200);
			res.end();
			return;
		}
		sendJson(res, 404, { error: { message: `no route ${req.method} ${path}`, type: "not_found" } });
	}

	private async answerChat(req: IncomingMessage, res: ServerResponse, path: string, body: ChatRequestBody) {
		const isMain = this.options.isMain ?? ((b: ChatRequestBody) => (b.tools?.length ?? 0) > 0);
		const main = isMain(body);
		const record: RecordedRequest = {
			index: this.requests.length,
			mainIndex: main ? this.mainRequests().length : undefined,
			main,
			method: req.method ?? "POST",
			path,
			headers: req.headers,
			body,
			step: undefined,
		};
		this.requests.push(record);
		const step = main ? await this.nextStep(record) : { text: this.options.sideText ?? "Scripted side answer" };
		record.step = main ? step : undefined;
		this.notify();

		if (step.delayMs && step.delayMs > 0) {
			const closed = await this.sleepUnlessClosed(res, step.delayMs);
			if (closed) return;
		}
		if (step.error) {
			sendJson(res, step.error.status, {
				error: {
					message: step.error.message,
					type: step.error.type ?? "invalid_request_error",
					code: step.error.code ?? null,
				},
			});
			return;
		}
		const model = body.model ?? "m";
		const toolCalls = (step.toolCalls ?? []).map((call) => ({
			id: call.id ?? `call_${++this.callCounter}`,
			type: "function" as const,
			function: { name: call.name, arguments: typeof call.args === "string" ? call.args : JSON.stringify(call.args) },
		}));
		const finishReason: FinishReason = step.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop");
		const usage = { ...defaultUsage, ...step.usage };
		const usageJson = {
			prompt_tokens: usage.promptTokens,
			completion_tokens: usage.completionTokens,
			total_tokens: usage.promptTokens + usage.completionTokens,
			prompt_tokens_details: { cached_tokens: usage.cachedTokens },
		};
		const id = `chatcmpl-${record.index}`;
		const created = Math.floor(Date.now() / 1000);

		if (!body.stream) {
			sendJson(res, 200, {
				id,
				object: "chat.completion",
				created,
				model,
				choices: [
					{
						index: 0,
						message: {
							role: "assistant",
							content: step.text ?? (toolCalls.length > 0 ? null : ""),
							...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
						},
						finish_reason: finishReason,
					},
				],
				usage: usageJson,
			});
			return;
		}

		res.writeHead(200, {
			"content-type": "text/event-stream",
			"cache-control": "no-cache",
			connection: "keep-alive",
		});
		const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
			res.write(
				`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices, ...extra })}\n\n`,
			);
		chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]);
		if (step.text) {
			for (const piece of splitText(step.text)) {
				chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]);
			}
		}
		toolCalls.forEach((call, index) => {
			chunk([
				{
					index: 0,
					delta: {
						tool_calls: [
							{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } },
						],
					},
					finish_reason: null,
				},
			]);
			chunk([
				{
					index: 0,
					delta: { tool_calls: [{ index, function: { arguments: call.function.arguments } }] },
					finish_reason: null,
				},
			]);
		});
		chunk([{ index: 0, delta: {}, finish_reason: finishReason }]);
		chunk([], { usage: usageJson });
		res.write("data: [DONE]\n\n");
		res.end();
	}

	private async nextStep(record: RecordedRequest): Promise<ModelStep> {
		const fallback = this.options.fallback ?? { text: "Done." };
		if (typeof this.scenario === "function") {
			return await this.scenario({ request: record, index: record.mainIndex ?? 0, server: this });
		}
		const step = this.scenario[this.stepCursor];
		if (step === undefined) {
			this.overruns++;
			return fallback;
		}
		this.stepCursor++;
		return step;
	}

	private sleepUnlessClosed(res: ServerResponse, ms: number): Promise<boolean> {
		this.openResponses.add(res);
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				res.off("close", onClose);
				this.openResponses.delete(res);
				resolve(false);
			}, ms);
			const onClose = () => {
				clearTimeout(timer);
				this.timers.delete(timer);
				this.openResponses.delete(res);
				resolve(true);
			};
			this.timers.add(timer);
			res.once("close", onClose);
		});
	}

	private notify(): void {
		for (const waiter of [...this.waiters]) waiter();
	}
}

/** Starts a scripted model server on 127.0.0.1 at a free port. */
export function startModelServer(options: ModelServerOptions = {}): Promise<ScriptedModelServer> {
	return ScriptedModelServer.start(options);
}

/** Plain text of an OpenAI message content (a string or an array of parts). */
export function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	if (Array.isArray(content)) {
		return content
			.map((part) => {
				if (typeof part === "string") return part;
				if (part && typeof part === "object" && "text" in part && typeof part.text === "string") return part.text;
				return "";
			})
			.join("");
	}
	return "";
}

function splitText(text: string): string[] {
	const pieces = text.match(/\S+\s*|\s+/g) ?? [text];
	return pieces.length > 0 ? pieces : [text];
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
