/**
 * boulder's own types for pi's extension API (src/adapters/pi/pi-api.ts)
 * checked against the pinned pi's declarations: every event boulder handles
 * gives at least the fields boulder reads, pi's context is boulder's
 * context, and what boulder hands pi (tools, commands, messages, settle
 * entries) is what pi takes. Type-checked by test/e2e/pi-api-types.test.ts.
 */
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { PiApi, PiCommand, PiContext, PiEvents, PiMessage, PiTool } from "../../src/adapters/pi/pi-api.js";

declare const api: ExtensionAPI;
declare const tool: PiTool;
declare const command: PiCommand;
declare const message: PiMessage;

export const context = (ctx: ExtensionContext): PiContext => ctx;

api.on("session_start", (event): void => void ((_: PiEvents["session_start"]) => _)(event));
api.on("session_compact", (event): void => void ((_: PiEvents["session_compact"]) => _)(event));
api.on("input", (event): void => void ((_: PiEvents["input"]) => _)(event));
api.on("agent_start", (event): void => void ((_: PiEvents["agent_start"]) => _)(event));
api.on("message_end", (event): void => void ((_: PiEvents["message_end"]) => _)(event));
api.on("tool_execution_end", (event): void => void ((_: PiEvents["tool_execution_end"]) => _)(event));
api.on("ui_prompt_start", (event): void => void ((_: PiEvents["ui_prompt_start"]) => _)(event));
api.on("ui_prompt_end", (event): void => void ((_: PiEvents["ui_prompt_end"]) => _)(event));
api.on("agent_settled", (event): void => void ((_: PiEvents["agent_settled"]) => _)(event));
api.on("session_shutdown", (event): void => void ((_: PiEvents["session_shutdown"]) => _)(event));
api.on("agent_before_settle", (event) => {
	const ours: PiEvents["agent_before_settle"] = event;
	const nudge = { type: "custom_message" as const, customType: "boulder", content: ours.outcome, display: true };
	return { entries: [...event.entries, nudge], continue: true };
});

api.registerTool(tool);
api.registerCommand("boulder", command);
api.sendMessage(message, { triggerTurn: true });
api.sendMessage(message, { deliverAs: "nextTurn" });

api.appendEntry("boulder-notice", { text: "", level: "info" });

export const methods: Pick<PiApi, "registerTool" | "registerCommand" | "appendEntry"> = api;
