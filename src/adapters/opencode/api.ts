/**
 * The few OpenCode calls the adapter makes, behind a small interface so the
 * event mapping can be tested with a fake, and every call has a deadline: the
 * SDK sets none, and a call that hangs must never hang a hook of OpenCode.
 *
 * Contract: every method rejects (never hangs) after its timeout; the caller
 * records the failure and moves on. Every text sent (prompt parts, toasts)
 * goes out with its control characters escaped (`core/control-text.ts`).
 */
import type { createOpencodeClient } from "@opencode-ai/sdk";
import { harnessSafe } from "../../core/control-text.js";
import { type ModelRef, messageOf } from "./event-read.js";
import { type Scheduler, systemScheduler, type Timer } from "./scheduler.js";

export interface TextPart {
	type: "text";
	text: string;
	synthetic?: boolean;
	ignored?: boolean;
	metadata?: Record<string, unknown>;
}

export interface PromptRoute {
	agent: string | null;
	model: ModelRef | null;
}

export interface StoredMessage {
	info: unknown;
	parts: unknown[];
}

export interface OpenCodeApi {
	/** Sends a prompt that starts a turn; resolves once OpenCode accepted it (HTTP 204). */
	promptAsync(sessionId: string, parts: TextPart[], route: PromptRoute): Promise<void>;
	/** Appends a message that starts no turn (`noReply`). */
	appendNoReply(sessionId: string, parts: TextPart[], route: PromptRoute): Promise<void>;
	/** The session's parent, or null for a root session. */
	parentOf(sessionId: string): Promise<string | null>;
	/** The newest messages of a session, oldest first. */
	messages(sessionId: string, limit: number): Promise<StoredMessage[]>;
	todos(sessionId: string): Promise<unknown[]>;
	/** Aborts a session's running turn (the watchdog, on a child past its limit). */
	abort(sessionId: string): Promise<void>;
	toast(message: string, variant: "info" | "success" | "warning" | "error", durationMs?: number): Promise<void>;
}

export type OpencodeClient = ReturnType<typeof createOpencodeClient>;

export interface ApiTimeouts {
	/** Prompts: accepting one can wait on the session's lock. */
	promptMs: number;
	/** Reads and toasts. */
	readMs: number;
}

export const DEFAULT_TIMEOUTS: ApiTimeouts = { promptMs: 15_000, readMs: 5_000 };

export class ApiError extends Error {
	constructor(message: string, options?: { cause?: unknown }) {
		super(message, options);
		this.name = "OpenCodeApiError";
	}
}

/** The real SDK client, each call under a deadline. */
export function sdkApi(
	client: OpencodeClient,
	timeouts: ApiTimeouts = DEFAULT_TIMEOUTS,
	scheduler: Scheduler = systemScheduler,
): OpenCodeApi {
	const call = async <T>(what: string, ms: number, run: (signal: AbortSignal) => Promise<SdkResult<T>>) => {
		const controller = new AbortController();
		const result = await withTimeout(run(controller.signal), ms, what, {
			scheduler,
			onTimeout: () => controller.abort(),
		});
		if (result.error !== undefined && result.error !== null) {
			throw new ApiError(`${what} failed: ${describe(result.error)}`);
		}
		const status = result.response?.status;
		if (status !== undefined && (status < 200 || status >= 300)) throw new ApiError(`${what} failed: HTTP ${status}`);
		return result.data as T;
	};
	return {
		async promptAsync(sessionId, parts, route) {
			await call("sending the prompt", timeouts.promptMs, (signal) =>
				client.session.promptAsync({
					path: { id: sessionId },
					body: { parts: harnessSafe(parts), ...routeBody(route) },
					signal,
				}),
			);
		},
		async appendNoReply(sessionId, parts, route) {
			await call("appending the answer", timeouts.promptMs, (signal) =>
				client.session.prompt({
					path: { id: sessionId },
					body: { parts: harnessSafe(parts), noReply: true, ...routeBody(route) },
					signal,
				}),
			);
		},
		async parentOf(sessionId) {
			const session = await call<{ parentID?: string }>("reading the session", timeouts.readMs, (signal) =>
				client.session.get({ path: { id: sessionId }, signal }),
			);
			return typeof session?.parentID === "string" && session.parentID ? session.parentID : null;
		},
		async messages(sessionId, limit) {
			const list = await call<StoredMessage[]>("reading the messages", timeouts.readMs, (signal) =>
				client.session.messages({ path: { id: sessionId }, query: { limit }, signal }),
			);
			return Array.isArray(list) ? list : [];
		},
		async todos(sessionId) {
			const list = await call<unknown[]>("reading the todo list", timeouts.readMs, (signal) =>
				client.session.todo({ path: { id: sessionId }, signal }),
			);
			return Array.isArray(list) ? list : [];
		},
		async abort(sessionId) {
			await call("aborting the session", timeouts.readMs, (signal) =>
				client.session.abort({ path: { id: sessionId }, signal }),
			);
		},
		async toast(message, variant, durationMs) {
			await call("showing a toast", timeouts.readMs, (signal) =>
				client.tui.showToast({
					body: {
						title: "boulder",
						message: harnessSafe(message),
						variant,
						...(durationMs ? { duration: durationMs } : {}),
					},
					signal,
				}),
			);
		},
	};
}

interface SdkResult<T> {
	data?: T;
	error?: unknown;
	response?: { status: number };
}

function routeBody(route: PromptRoute): { agent?: string; model?: ModelRef } {
	return { ...(route.agent ? { agent: route.agent } : {}), ...(route.model ? { model: route.model } : {}) };
}

export interface DeadlineOptions {
	scheduler?: Scheduler;
	/** Called when the deadline passes, before the rejection (to abort the request). */
	onTimeout?: () => void;
}

/** Resolves or rejects like `promise`, or rejects after `ms`. */
export function withTimeout<T>(
	promise: Promise<T>,
	ms: number,
	what: string,
	options: DeadlineOptions = {},
): Promise<T> {
	const scheduler = options.scheduler ?? systemScheduler;
	let timer: Timer | undefined;
	const deadline = new Promise<never>((_, reject) => {
		timer = scheduler
			.setTimeout(() => {
				options.onTimeout?.();
				reject(new ApiError(`${what} timed out after ${ms} ms`));
			}, ms)
			.unref();
	});
	return Promise.race([promise, deadline]).finally(() => scheduler.clearTimeout(timer));
}

function describe(error: unknown): string {
	if (typeof error === "object" && error !== null) {
		const data = (error as { data?: { message?: unknown } }).data;
		if (data && typeof data.message === "string") return data.message;
		const name = (error as { name?: unknown }).name;
		if (typeof name === "string") return name;
		try {
			return JSON.stringify(error).slice(0, 300);
		} catch (stringify) {
			return messageOf(stringify);
		}
	}
	return messageOf(error);
}
