/**
 * The part of pi's extension API that boulder uses, written down as
 * structural types so that boulder builds and type-checks without pi
 * installed (pi needs Node 22; boulder runs on Node 20). Only the fields
 * boulder reads are named; whatever pi adds is ignored.
 *
 * Contract: `test/e2e/pi-api-types.test.ts` type-checks these against the
 * pinned pi's own declarations, so a field pi renames fails a test, not a
 * user's session.
 */

/** The events boulder handles, with the fields it reads. */
export interface PiEvents {
	session_start: { reason: string };
	session_compact: unknown;
	input: { source: string };
	agent_start: unknown;
	message_end: { message: unknown };
	tool_execution_end: { toolName: string; isError: boolean; parentToolCallId?: string | undefined };
	ui_prompt_start: { kind: string; title?: string | undefined };
	ui_prompt_end: unknown;
	agent_before_settle: { outcome: string; continue: boolean; entries: readonly PiBoundaryEntry[] };
	agent_settled: { aborted: boolean };
	session_shutdown: unknown;
}

/** An entry appended at a settle boundary: boulder appends its nudge as a custom message. */
export type PiBoundaryEntry =
	| { type: "custom_message"; customType: string; content: string; display: boolean; details?: unknown }
	| { type: string };

export interface PiContext {
	cwd: string;
	mode: string;
	hasUI: boolean;
	ui: { notify(message: string, type?: "info" | "warning" | "error"): void };
	sessionManager: { getSessionId(): string; getEntries(): readonly { type: string }[] };
	isIdle(): boolean;
	hasPendingMessages(): boolean;
}

export interface PiToolResult {
	content: { type: "text"; text: string }[];
	details: undefined;
}

export interface PiTool {
	name: string;
	label: string;
	description: string;
	promptSnippet?: string;
	/** Plain JSON Schema: pi validates arguments as JSON Schema whatever built it. */
	parameters: Record<string, unknown>;
	executionMode?: "sequential" | "parallel";
	execute(id: string, params: unknown, signal: unknown, onUpdate: unknown, ctx: PiContext): Promise<PiToolResult>;
}

export interface PiCommand {
	description?: string;
	getArgumentCompletions?: (prefix: string) => { value: string; label: string; description?: string }[] | null;
	handler: (args: string, ctx: PiContext) => Promise<void>;
}

export interface PiMessage {
	customType: string;
	content: string;
	display: boolean;
	details?: unknown;
}

export type PiHandler<E> = (event: E, ctx: PiContext) => unknown;

export interface PiApi {
	on<K extends keyof PiEvents>(event: K, handler: PiHandler<PiEvents[K]>): unknown;
	registerTool(tool: PiTool): void;
	registerCommand(name: string, command: PiCommand): void;
	/** An entry of the session that the model never sees; in `--mode json` it is an `entry_appended` line. */
	appendEntry(customType: string, data?: unknown): void;
	sendMessage(
		message: PiMessage,
		options?: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" },
	): unknown;
}
