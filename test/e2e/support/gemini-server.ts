// A scripted model server speaking the Gemini API (`generateContent`,
// `streamGenerateContent` as server-sent events when the client asks with
// `?alt=sse`, and `countTokens`) on 127.0.0.1, so the real Gemini CLI runs
// offline (`GOOGLE_GEMINI_BASE_URL`) and every turn is decided by the test.
// Node built-ins only.
//
// Contract: a "main" request is one that offers tools (an agent turn); each
// one consumes the next scripted step. Requests without tools (a next-speaker
// check, a summary) are "side" requests: they get a generic answer and
// consume nothing.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FunctionCallSpec {
	name: string;
	args: Record<string, unknown>;
}

export interface GeminiStep {
	text?: string;
	calls?: FunctionCallSpec[];
	usage?: { prompt?: number; output?: number; cached?: number };
	/** Answer with this HTTP error instead of a reply. */
	error?: { status: number; message: string };
}

export interface GeminiPart {
	text?: string;
	thought?: boolean;
	functionCall?: { name: string; args?: unknown };
	functionResponse?: { name: string; response?: unknown };
}

export interface GeminiRequestBody {
	contents?: { role?: string; parts?: GeminiPart[] }[];
	tools?: { functionDeclarations?: { name: string }[] }[];
	[key: string]: unknown;
}

export interface RecordedRequest {
	main: boolean;
	path: string;
	body: GeminiRequestBody;
}

/** A list of steps, consumed in order, or a function deciding each main reply from the main requests so far. */
export type Scenario = GeminiStep[] | ((index: number, request: RecordedRequest) => GeminiStep);

export interface GeminiServerOptions {
	/** Answer for main requests once a step list is used up. Default: the text "Done." */
	whenExhausted?: GeminiStep;
}

export class GeminiServer {
	readonly requests: RecordedRequest[] = [];
	/** Main requests answered by `whenExhausted` because the step list was used up. */
	exhausted = 0;
	private cursor = 0;

	private constructor(
		private readonly server: Server,
		readonly port: number,
		private readonly scenario: Scenario,
		private readonly options: GeminiServerOptions,
	) {}

	static async start(scenario: Scenario, options: GeminiServerOptions = {}): Promise<GeminiServer> {
		const server = createServer();
		await new Promise<void>((resolve, reject) => {
			server.once("error", reject);
			server.listen(0, "127.0.0.1", () => resolve());
		});
		const instance = new GeminiServer(server, (server.address() as AddressInfo).port, scenario, options);
		server.on("request", (req, res) => {
			// A client that hangs up mid-answer (a cancelled turn) must not crash the test process.
			res.on("error", () => undefined);
			instance.handle(req, res).catch((error: unknown) => {
				if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
				res.end(JSON.stringify({ error: { code: 500, message: String(error), status: "INTERNAL" } }));
			});
		});
		return instance;
	}

	/** For `GOOGLE_GEMINI_BASE_URL`. */
	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	mainRequests(): RecordedRequest[] {
		return this.requests.filter((request) => request.main);
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const path = req.url ?? "";
		const body = JSON.parse((await readBody(req)) || "{}") as GeminiRequestBody;
		if (path.includes(":countTokens")) {
			json(res, 200, { totalTokens: 100 });
			return;
		}
		if (!path.includes(":generateContent") && !path.includes(":streamGenerateContent")) {
			json(res, 404, { error: { code: 404, message: `no such method: ${path}`, status: "NOT_FOUND" } });
			return;
		}
		const main = (body.tools ?? []).some((tool) => (tool.functionDeclarations ?? []).length > 0);
		const request: RecordedRequest = { main, path, body };
		this.requests.push(request);
		const step = main ? this.next(request) : { text: '{"reasoning": "scripted", "next_speaker": "user"}' };
		if (step.error) {
			json(res, step.error.status, { error: { code: step.error.status, message: step.error.message } });
			return;
		}
		const reply = replyOf(step);
		if (path.includes(":streamGenerateContent") && path.includes("alt=sse")) {
			res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
			res.end(`data: ${JSON.stringify(reply)}\r\n\r\n`);
		} else if (path.includes(":streamGenerateContent")) {
			json(res, 200, [reply]);
		} else {
			json(res, 200, reply);
		}
	}

	private next(request: RecordedRequest): GeminiStep {
		if (typeof this.scenario === "function") return this.scenario(this.mainRequests().length - 1, request);
		const step = this.scenario[this.cursor];
		if (step) {
			this.cursor++;
			return step;
		}
		this.exhausted++;
		return this.options.whenExhausted ?? { text: "Done." };
	}
}

function replyOf(step: GeminiStep): Record<string, unknown> {
	const parts: GeminiPart[] = [];
	if (step.text) parts.push({ text: step.text });
	for (const call of step.calls ?? []) parts.push({ functionCall: { name: call.name, args: call.args } });
	const prompt = step.usage?.prompt ?? 100;
	const output = step.usage?.output ?? 20;
	return {
		candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
		usageMetadata: {
			promptTokenCount: prompt,
			candidatesTokenCount: output,
			cachedContentTokenCount: step.usage?.cached ?? 0,
			totalTokenCount: prompt + output,
		},
		modelVersion: "gemini-2.5-flash",
	};
}

function json(res: ServerResponse, status: number, value: unknown): void {
	res.writeHead(status, { "content-type": "application/json" });
	res.end(JSON.stringify(value));
}

async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString("utf8");
}

/** The text of a request's last user message that is a prompt (not tool results). */
export function lastPromptText(request: RecordedRequest): string {
	const contents = request.body.contents ?? [];
	for (let i = contents.length - 1; i >= 0; i--) {
		const content = contents[i];
		if (content?.role !== "user") continue;
		const parts = content.parts ?? [];
		if (parts.some((part) => part.functionResponse)) return "";
		return parts.map((part) => part.text ?? "").join("");
	}
	return "";
}

/** Every text of a request, for "did this ever reach the model" checks. */
export function textsIn(request: RecordedRequest): string[] {
	return (request.body.contents ?? []).flatMap((content) => (content.parts ?? []).map((part) => part.text ?? ""));
}
