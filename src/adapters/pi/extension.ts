/**
 * The module pi loads (`boulder-agent/pi`, or the path `boulder install pi`
 * writes into pi's settings): its default export is the extension. It
 * registers boulder's handlers, the todo tools and `/boulder`; all the work
 * is in the sibling modules (`bridge.ts` maps the events).
 *
 * pi may run the factory in invocations that never start a session, so it
 * only registers: the state folder is opened at the first event, in the
 * session's own folder (`ctx.cwd`).
 *
 * Notices go where the mode shows them: pi's UI (interactive, and RPC, where
 * they are `extension_ui_request` notify lines), stderr in `-p` text mode,
 * and an appended `boulder-notice` entry in `--mode json`, which pi writes
 * into its JSON stream (`entry_appended`) and keeps out of the model's context.
 *
 * Contract: never throws into pi; a handler that fails records why and lets
 * the agent stop. Every text handed to pi (notices, nudges, resume context,
 * `/boulder`'s answers) goes out here, with its control characters escaped
 * (`core/control-text.ts`).
 */
import { harnessSafe } from "../../core/control-text.js";
import type { ResumeHow } from "../../engine/engine.js";
import { fileWorkspace } from "../shared/workspace.js";
import { cameBackHow, PiBridge, type PiView } from "./bridge.js";
import { readAssistant } from "./event-read.js";
import { COMMAND_DESCRIPTION, COMMAND_NAME, NOTICE_TYPE, NUDGE_TYPE, SUBCOMMANDS } from "./messages.js";
import type { PiApi, PiContext } from "./pi-api.js";
import { registerTodoTools } from "./todo-tools.js";

/** The `customType` of the resume context in pi's session. */
const RESUME_TYPE = "boulder-resume-context";

export default function boulderExtension(pi: PiApi): void {
	const bridges = new Map<string, PiBridge>();
	const bridgeOf = (ctx: PiContext): PiBridge => {
		let bridge = bridges.get(ctx.cwd);
		if (!bridge) {
			const created = new PiBridge({
				workspace: fileWorkspace(ctx.cwd, (warning) => {
					void created.recordError(null, "opening boulder's state", new Error(warning));
				}),
			});
			bridge = created;
			bridges.set(ctx.cwd, bridge);
		}
		return bridge;
	};
	const viewOf = (ctx: PiContext): PiView => ({
		sessionId: ctx.sessionManager.getSessionId(),
		notify: (raw, level) => {
			const text = harnessSafe(raw);
			if (ctx.hasUI) ctx.ui.notify(text, level);
			else if (ctx.mode === "print") process.stderr.write(`${text}\n`);
			// `--mode json`: an appended entry is an `entry_appended` line of the JSON stream, never sent to the model.
			else if (ctx.mode === "json") pi.appendEntry(NOTICE_TYPE, { text, level });
		},
		idle: () => ctx.isIdle(),
		startRun: (text) =>
			pi.sendMessage({ customType: NUDGE_TYPE, content: harnessSafe(text), display: true }, { triggerTurn: true }),
	});
	const on = (ctx: PiContext) => ({ bridge: bridgeOf(ctx), view: viewOf(ctx) });
	// Queued for the next run, beside its prompt: context the model reads, never a run of its own.
	const giveResumeContext = async (ctx: PiContext, how: ResumeHow) => {
		const { bridge, view } = on(ctx);
		const text = await bridge.cameBack(view, how);
		if (text !== null)
			pi.sendMessage(
				{ customType: RESUME_TYPE, content: harnessSafe(text), display: false },
				{ deliverAs: "nextTurn" },
			);
	};

	pi.on("session_start", async (event, ctx) => {
		const hasMessages = ctx.sessionManager.getEntries().some((entry) => entry.type === "message");
		const how = cameBackHow(event.reason, hasMessages);
		if (how !== null) await giveResumeContext(ctx, how);
	});
	pi.on("session_compact", async (_event, ctx) => giveResumeContext(ctx, "compact"));

	pi.on("input", async (event, ctx) => {
		const { bridge, view } = on(ctx);
		await bridge.input(view, event.source);
	});
	pi.on("agent_start", async (_event, ctx) => {
		const { bridge, view } = on(ctx);
		await bridge.agentStart(view);
	});
	pi.on("message_end", (event, ctx) => {
		const report = readAssistant(event.message);
		if (report) bridgeOf(ctx).assistantMessage(report);
	});
	pi.on("tool_execution_end", async (event, ctx) => {
		if (event.parentToolCallId !== undefined) return;
		const { bridge, view } = on(ctx);
		await bridge.toolEnded(view, event.toolName, event.isError);
	});
	pi.on("ui_prompt_start", async (event, ctx) => {
		const { bridge, view } = on(ctx);
		await bridge.promptStarted(view, event.kind, event.title);
	});
	pi.on("ui_prompt_end", async (_event, ctx) => {
		const { bridge, view } = on(ctx);
		await bridge.promptEnded(view);
	});
	pi.on("agent_before_settle", async (event, ctx) => {
		const { bridge, view } = on(ctx);
		const next = await bridge.beforeSettle(view, event.outcome, event.continue || ctx.hasPendingMessages());
		if (next === null) return;
		return {
			entries: [
				...event.entries,
				{
					type: "custom_message",
					customType: NUDGE_TYPE,
					content: next.text,
					display: true,
					details: { key: next.key },
				},
			],
			continue: true,
		};
	});
	pi.on("agent_settled", async (event, ctx) => {
		const { bridge, view } = on(ctx);
		await bridge.settled(view, event.aborted);
	});
	pi.on("session_shutdown", async () => {
		await Promise.all([...bridges.values()].map((bridge) => bridge.settledJobs()));
	});

	registerTodoTools(pi, on);

	pi.registerCommand(COMMAND_NAME, {
		description: COMMAND_DESCRIPTION,
		getArgumentCompletions: (prefix) => {
			const word = prefix.trim().toLowerCase();
			const items = SUBCOMMANDS.filter((sub) => sub.value.startsWith(word));
			return items.length > 0
				? items.map((sub) => ({ value: sub.value, label: sub.value, description: sub.description }))
				: null;
		},
		handler: async (args, ctx) => {
			const { bridge, view } = on(ctx);
			view.notify(await bridge.command(view, args), "info");
		},
	});
}
