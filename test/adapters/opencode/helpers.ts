/**
 * A small stand-in for OpenCode 1.18.33 for the hub's tests: it calls the
 * hub's hooks with the payloads the real server sends (see
 * docs/opencode-notes.md), to one or more plugin instances at once, and a
 * fake API that records every call. The engine runs for real, over a memory
 * store. Time is `ManualTime`: it moves only when a test advances it.
 */

import type { OpenCodeApi, PromptRoute, StoredMessage, TextPart } from "../../../src/adapters/opencode/api.js";
import type { PluginHost } from "../../../src/adapters/opencode/host.js";
import { Hub, type HubHooks } from "../../../src/adapters/opencode/hub.js";
import type { WorkspaceSource } from "../../../src/adapters/shared/workspace.js";
import type { Clock } from "../../../src/core/clock.js";
import { Config, type ConfigInput } from "../../../src/core/config.js";
import type { DecisionRecord } from "../../../src/core/decision-record.js";
import { DEFAULT_CONFIG } from "../../../src/core/default-config.js";
import { scopeKey } from "../../../src/core/scope-key.js";
import type { ContinuationState } from "../../../src/core/turns.js";
import { Engine } from "../../../src/engine/engine.js";
import { MemoryStore } from "../../../src/state/memory-store.js";
import { flush, ManualTime } from "./manual-time.js";

export const MODEL = { providerID: "fake", modelID: "m" };

export interface Call {
	sessionId: string;
	parts: TextPart[];
	route: PromptRoute;
}

export class FakeApi implements OpenCodeApi {
	readonly prompts: Call[] = [];
	readonly appended: Call[] = [];
	readonly toasts: { message: string; variant: string }[] = [];
	readonly parents = new Map<string, string | null>();
	readonly stored = new Map<string, StoredMessage[]>();
	readonly todoLists = new Map<string, unknown[]>();
	/** Set to make `promptAsync` fail. */
	promptError: Error | null = null;
	/** Set to make reading the messages fail. */
	messagesError: Error | null = null;
	/** Called for an accepted prompt, as OpenCode would then run `chat.message`; null: the prompt never starts. */
	onPrompt: ((call: Call) => Promise<void>) | null = null;
	private readonly starting = new Set<Promise<void>>();

	/**
	 * OpenCode answers 204 before the turn starts, so the prompt starts on a
	 * later turn of the event loop (no time passes); `settled` waits for it.
	 */
	async promptAsync(sessionId: string, parts: TextPart[], route: PromptRoute): Promise<void> {
		if (this.promptError) throw this.promptError;
		const call = { sessionId, parts, route };
		this.prompts.push(call);
		const start = this.onPrompt;
		if (!start) return;
		const started: Promise<void> = flush()
			.then(() => start(call))
			.finally(() => this.starting.delete(started));
		this.starting.add(started);
	}

	/** Whether an accepted prompt has yet to start. */
	get busy(): boolean {
		return this.starting.size > 0;
	}

	async settled(): Promise<void> {
		while (this.starting.size > 0) await Promise.all([...this.starting]);
	}

	async appendNoReply(sessionId: string, parts: TextPart[], route: PromptRoute): Promise<void> {
		this.appended.push({ sessionId, parts, route });
	}

	async parentOf(sessionId: string): Promise<string | null> {
		return this.parents.get(sessionId) ?? null;
	}

	async messages(sessionId: string): Promise<StoredMessage[]> {
		if (this.messagesError) throw this.messagesError;
		return this.stored.get(sessionId) ?? [];
	}

	async todos(sessionId: string): Promise<unknown[]> {
		return this.todoLists.get(sessionId) ?? [];
	}

	/** Sessions the adapter aborted, in order. */
	readonly aborted: string[] = [];

	async abort(sessionId: string): Promise<void> {
		this.aborted.push(sessionId);
	}

	async toast(message: string, variant: string): Promise<void> {
		this.toasts.push({ message, variant });
	}
}

export interface TestWorkspace {
	store: MemoryStore;
	source: WorkspaceSource;
	/** When set, reading the config fails with it. */
	brokenConfig: Error | null;
	setConfig(config: ConfigInput): void;
}

export function testWorkspace(config: ConfigInput = {}, clock?: Clock): TestWorkspace {
	const store = new MemoryStore("/w", clock ? { clock } : {});
	const plans = { read: async () => null };
	const timed = clock ? { clock } : {};
	const keeper = new Engine({ store, config: DEFAULT_CONFIG, plans, ...timed });
	let current = Config.parse(config);
	const workspace: TestWorkspace = {
		store,
		brokenConfig: null,
		setConfig(next) {
			current = Config.parse(next);
		},
		source: {
			bookkeeping: async () => keeper,
			deciding: async () => {
				if (workspace.brokenConfig) throw workspace.brokenConfig;
				return new Engine({ store, config: current, plans, ...timed });
			},
		},
	};
	return workspace;
}

/** The default test config: a short countdown, a fast backoff. */
export const FAST: ConfigInput = { countdownMs: 20, backoff: { baseMs: 40, capMs: 200 } };

/** The default test wait for a sent nudge to appear. */
export const CONFIRM_MS = 300;

export interface TestHub {
	hub: Hub;
	api: FakeApi;
	ws: TestWorkspace;
	time: ManualTime;
	/** Waits until nothing is left to run but timers: the hub's jobs, sends, prompts starting. */
	settled(): Promise<void>;
}

export function testHub(options: { config?: ConfigInput; confirmMs?: number; host?: PluginHost } = {}): TestHub {
	const time = new ManualTime();
	const api = new FakeApi();
	const ws = testWorkspace(options.config ?? FAST, time);
	const hub = new Hub({
		directory: "/w",
		...(options.host ? { host: options.host } : {}),
		api,
		workspace: ws.source,
		clock: time,
		scheduler: time,
		confirmMs: options.confirmMs ?? CONFIRM_MS,
	});
	const settled = async () => {
		for (;;) {
			await flush();
			if (!hub.busy && !api.busy) return;
			await hub.settled();
			await api.settled();
		}
	};
	time.settle = settled;
	return { hub, api, ws, time, settled };
}

let counter = 0;
function nextId(prefix: string): string {
	counter++;
	return `${prefix}_${String(counter).padStart(6, "0")}`;
}

export interface StepSpec {
	finish?: string;
	tokens?: { input?: number; output?: number; reasoning?: number; cache?: { read?: number; write?: number } };
	text?: string;
	error?: { name: string; data?: Record<string, unknown> };
	tool?: { tool: string; callID?: string };
	agent?: string;
}

/** Drives hooks the way OpenCode does: the same event (same id) to every plugin instance, in load order. */
export class FakeOpenCode {
	readonly instances: HubHooks[];

	constructor(...instances: HubHooks[]) {
		this.instances = instances;
	}

	async emit(type: string, properties: Record<string, unknown>): Promise<void> {
		const event = { id: nextId("evt"), type, properties };
		for (const hooks of this.instances) await hooks.event({ event });
	}

	/** A prompt: `chat.message` on every instance, then the user message, its part, and busy. */
	async prompt(
		sessionID: string,
		text: string,
		options: {
			agent?: string;
			synthetic?: boolean;
			ignored?: boolean;
			metadata?: Record<string, unknown>;
			model?: typeof MODEL;
			/** A message that starts no turn: OpenCode runs no loop, so the session does not go busy. */
			noReply?: boolean;
		} = {},
	): Promise<string> {
		const id = nextId("msg");
		const message = {
			id,
			sessionID,
			role: "user",
			time: { created: Date.now() },
			agent: options.agent ?? "build",
			model: options.model ?? MODEL,
		};
		const part = {
			id: nextId("prt"),
			sessionID,
			messageID: id,
			type: "text",
			text,
			...(options.synthetic ? { synthetic: true } : {}),
			...(options.ignored ? { ignored: true } : {}),
			...(options.metadata ? { metadata: options.metadata } : {}),
		};
		for (const hooks of this.instances) {
			await hooks["chat.message"](
				{ sessionID, agent: message.agent, model: message.model },
				{ message, parts: [part] },
			);
		}
		await this.emit("message.updated", { sessionID, info: message });
		await this.emit("message.part.updated", { sessionID, part });
		if (!options.noReply) await this.emit("session.status", { sessionID, status: { type: "busy" } });
		return id;
	}

	/** What OpenCode does with a `noReply` message a plugin appended: `chat.message` and the message, no turn. */
	async appendFromPlugin(call: Call): Promise<void> {
		const part = call.parts[0] as TextPart;
		await this.prompt(call.sessionId, part.text, {
			noReply: true,
			...(part.ignored ? { ignored: true } : {}),
			...(part.metadata ? { metadata: part.metadata } : {}),
		});
	}

	/** What OpenCode does with a prompt a plugin sent: `chat.message` with its parts, then the same as a prompt. */
	async promptFromPlugin(call: Call): Promise<void> {
		const part = call.parts[0] as TextPart;
		await this.prompt(call.sessionId, part.text, {
			agent: call.route.agent ?? "build",
			...(part.synthetic ? { synthetic: true } : {}),
			...(part.metadata ? { metadata: part.metadata } : {}),
		});
	}

	/** A user message that appears without `chat.message` (OpenCode's own: the replay after an overflow). */
	async unannouncedUserMessage(sessionID: string): Promise<void> {
		const info = {
			id: nextId("msg"),
			sessionID,
			role: "user",
			time: { created: Date.now() },
			agent: "build",
			model: MODEL,
		};
		await this.emit("message.updated", { sessionID, info });
	}

	/** One assistant step: the message without finish, its parts, then with finish and tokens, then completed. */
	async step(sessionID: string, spec: StepSpec = {}): Promise<string> {
		const id = nextId("msg");
		const base = {
			id,
			sessionID,
			role: "assistant",
			parentID: "msg_user",
			agent: spec.agent ?? "build",
			mode: spec.agent ?? "build",
			modelID: MODEL.modelID,
			providerID: MODEL.providerID,
			time: { created: Date.now() },
			tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
			cost: 0,
		};
		await this.emit("message.updated", { sessionID, info: base });
		if (spec.text) {
			await this.emit("message.part.updated", {
				sessionID,
				part: { id: nextId("prt"), sessionID, messageID: id, type: "text", text: spec.text },
			});
		}
		if (spec.tool) {
			const part = { id: nextId("prt"), sessionID, messageID: id, type: "tool", tool: spec.tool.tool };
			const callID = spec.tool.callID ?? nextId("call");
			for (const status of ["pending", "running", "completed"]) {
				await this.emit("message.part.updated", { sessionID, part: { ...part, callID, state: { status } } });
			}
		}
		const tokens = {
			input: spec.tokens?.input ?? 100,
			output: spec.tokens?.output ?? 20,
			reasoning: spec.tokens?.reasoning ?? 0,
			cache: { read: spec.tokens?.cache?.read ?? 0, write: spec.tokens?.cache?.write ?? 0 },
		};
		const done = {
			...base,
			tokens,
			...(spec.error ? { error: spec.error } : { finish: spec.finish ?? "stop" }),
		};
		await this.emit("message.updated", { sessionID, info: done });
		await this.emit("message.updated", { sessionID, info: { ...done, time: { ...base.time, completed: Date.now() } } });
		return id;
	}

	async todos(sessionID: string, statuses: string[]): Promise<void> {
		const todos = statuses.map((status, i) => ({
			content: `Item ${String.fromCharCode(65 + i)}`,
			status,
			priority: "medium",
		}));
		await this.emit("todo.updated", { sessionID, todos });
	}

	/** The end of a turn: `session.status` idle, then the deprecated `session.idle`, back to back. */
	async idle(sessionID: string): Promise<void> {
		await this.emit("session.status", { sessionID, status: { type: "idle" } });
		await this.emit("session.idle", { sessionID });
	}

	/** A whole turn: the prompt, the steps, the idle. */
	async turn(sessionID: string, text: string, steps: StepSpec[] = [{}]): Promise<void> {
		await this.prompt(sessionID, text);
		for (const step of steps) await this.step(sessionID, step);
		await this.idle(sessionID);
	}
}

export async function stateOf(
	store: MemoryStore,
	sessionId: string,
	harness: PluginHost["harness"] = "opencode",
): Promise<ContinuationState> {
	const scope = scopeKey({ kind: "session", harness, sessionId });
	if (scope === null) throw new Error(`no scope for ${sessionId}`);
	const read = await store.readScope(scope);
	if (read.kind !== "ok") throw new Error(`no state for ${sessionId}`);
	return read.value;
}

export async function records(store: MemoryStore): Promise<DecisionRecord[]> {
	return store.readDecisions({ limit: 1000 });
}

export async function decisionsOf(store: MemoryStore, sessionId?: string): Promise<string[]> {
	return (await records(store))
		.filter((record) => sessionId === undefined || record.session === sessionId)
		.map((record) => `${record.kind}:${record.reason}`);
}

const opened: TestHub[] = [];

/** A test hub with one plugin instance driven by a `FakeOpenCode`; `closeHubs` closes it after the test. */
export function setUp(options: Parameters<typeof testHub>[0] = {}): TestHub & { oc: FakeOpenCode } {
	const made = testHub(options);
	opened.push(made);
	return { ...made, oc: new FakeOpenCode(made.hub.hooks()) };
}

export async function closeHubs(): Promise<void> {
	for (const made of opened.splice(0)) {
		made.hub.close();
		await made.settled();
	}
}

/** Lets a sent nudge start the way OpenCode starts it (chat.message with its marked part). */
export function autoStart(api: FakeApi, oc: FakeOpenCode): void {
	api.onPrompt = (call: Call) => oc.promptFromPlugin(call);
}

let sessions = 0;

/** A new root session id: the delivery gate is process-wide, so each test uses its own. */
export function newSession(): string {
	return `ses_root_${++sessions}`;
}
