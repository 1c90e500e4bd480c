/**
 * OpenCode's tool hooks for orchestrate mode and todo hygiene:
 * `tool.execute.before` asks the engine about a file change the session is
 * about to make (a refusal is thrown, which OpenCode hands the model as the
 * tool's error; a warning or a reminder to update the list waits for the
 * tool's result), and `tool.execute.after` appends what rides on a result:
 * that warning or reminder, or, on the `task` tool's result, the note asking
 * the orchestrator to check its subagent's work. Never a new prompt: awaiting a
 * prompt from `tool.execute.after` would deadlock on the session's lock.
 *
 * Contract: `before` throws only a refusal; everything else is recorded and
 * the tool runs as if boulder were absent (when boulder cannot see, it does
 * not restrict).
 */
import type { Engine, SessionRef } from "../../engine/engine.js";
import { withTimeout } from "./api.js";
import { BoundedMap } from "./bounded.js";
import { FILE_TOOLS, isRecord } from "./event-read.js";
import type { Scheduler } from "./scheduler.js";

/** Most warnings waiting for their tool's result (a tool that never finishes must not keep one forever). */
const PENDING_NOTES = 200;

/** The patch tools name their files inside the patch text. */
const PATCH_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm;

/** The child session a `task` result names, for a later resume (`task_id`). */
const TASK_ID = /\btask_id:\s*(\S+)/;

export interface ToolHookDeps {
	/** The engine with the config as it is now. */
	engine(): Promise<Engine>;
	/** The session as the engine knows it, or null for a child session (or one whose parent cannot be read). */
	rootRef(sessionId: string): Promise<SessionRef | null>;
	scheduler: Scheduler;
	waitMs: number;
	recordError(ref: SessionRef | null, where: string, error: unknown): Promise<void>;
}

export interface ToolInput {
	tool: string;
	sessionID: string;
	callID: string;
	args?: unknown;
}

export class ToolHooks {
	private readonly notes = new BoundedMap<string, string>(PENDING_NOTES);

	constructor(private readonly deps: ToolHookDeps) {}

	/** The refusal to throw, or null to let the tool run. */
	async before(input: ToolInput, args: unknown): Promise<string | null> {
		if (!FILE_TOOLS.has(input.tool)) return null;
		let ref: SessionRef | null = null;
		try {
			ref = await this.deps.rootRef(input.sessionID);
			if (ref === null) return null;
			const engine = await this.deps.engine();
			const checking = engine.fileChangeAsked(ref, { tool: input.tool, files: filesOf(args) });
			const { verdict, reminder } = await withTimeout(checking, this.deps.waitMs, "checking a file change", {
				scheduler: this.deps.scheduler,
			});
			if (verdict.kind === "deny") return verdict.text;
			const notes = [verdict.kind === "warn" ? verdict.text : null, reminder].filter((text) => text !== null);
			if (notes.length > 0) this.notes.set(input.callID, notes.join("\n\n"));
			return null;
		} catch (error) {
			await this.deps.recordError(ref, "checking a file change (tool.execute.before)", error);
			return null;
		}
	}

	/** Appends what rides on this tool's result, if anything. */
	async after(input: ToolInput, output: { output?: unknown; metadata?: unknown }): Promise<void> {
		const notes: string[] = [];
		const warned = this.notes.get(input.callID);
		if (warned !== undefined) {
			this.notes.delete(input.callID);
			notes.push(warned);
		}
		if (input.tool === "task") {
			const note = await this.taskReturned(input, output);
			if (note !== null) notes.push(note);
		}
		if (notes.length === 0) return;
		const text = typeof output.output === "string" ? output.output : "";
		output.output = [text, ...notes].filter((part) => part !== "").join("\n\n");
	}

	private async taskReturned(
		input: ToolInput,
		output: { output?: unknown; metadata?: unknown },
	): Promise<string | null> {
		let ref: SessionRef | null = null;
		try {
			ref = await this.deps.rootRef(input.sessionID);
			if (ref === null) return null;
			const args = isRecord(input.args) ? input.args : {};
			const description = [args.description, args.prompt].filter((text) => typeof text === "string").join("\n");
			const engine = await this.deps.engine();
			const returned = engine.subagentReturned(ref, {
				session: childSessionOf(output),
				description: description === "" ? null : description,
			});
			return await withTimeout(returned, this.deps.waitMs, "noting a subagent's result", {
				scheduler: this.deps.scheduler,
			});
		} catch (error) {
			await this.deps.recordError(ref, "noting a subagent's result (tool.execute.after)", error);
			return null;
		}
	}
}

/** The files a file tool's arguments name: `filePath`, or the files of a patch. */
export function filesOf(args: unknown): string[] {
	if (!isRecord(args)) return [];
	if (typeof args.filePath === "string" && args.filePath !== "") return [args.filePath];
	const patch = typeof args.patchText === "string" ? args.patchText : typeof args.patch === "string" ? args.patch : "";
	return [...patch.matchAll(PATCH_FILE)].map((match) => (match[1] ?? "").trim()).filter((file) => file !== "");
}

/** The subagent's session: the result's metadata, else the `task_id` its text names. */
export function childSessionOf(output: { output?: unknown; metadata?: unknown }): string | null {
	const metadata = isRecord(output.metadata) ? output.metadata : {};
	if (typeof metadata.sessionId === "string" && metadata.sessionId !== "") return metadata.sessionId;
	const text = typeof output.output === "string" ? output.output : "";
	return TASK_ID.exec(text)?.[1] ?? null;
}
