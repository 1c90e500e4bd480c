/**
 * Reading what pi hands the extension: an assistant message at
 * `message_end` (its usage, how it ended, its text). Kept loose on purpose:
 * a field pi renames reads as "unknown" or zero, never as a crash.
 *
 * Contract: nothing here throws; input is unchecked.
 */
import type { TokenSpend } from "../../core/turns.js";
import { isRecord } from "../shared/loose.js";
import type { AssistantReport } from "./bridge.js";

/** The assistant message's report, or null for any other message (user, tool result, custom). */
export function readAssistant(message: unknown): AssistantReport | null {
	if (!isRecord(message) || message.role !== "assistant") return null;
	return {
		stopReason: typeof message.stopReason === "string" ? message.stopReason : "unknown",
		errorMessage: typeof message.errorMessage === "string" ? message.errorMessage : null,
		text: textOf(message.content),
		spend: spendOf(message.usage),
	};
}

/** Real spend of one call: fresh input, output and cache writes (pi reports cache reads apart from input). */
export function spendOf(usage: unknown): TokenSpend {
	if (!isRecord(usage)) return { input: 0, output: 0, cacheWrite: 0 };
	return { input: count(usage.input), output: count(usage.output), cacheWrite: count(usage.cacheWrite) };
}

function count(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.filter(
			(part): part is { type: "text"; text: string } =>
				isRecord(part) && part.type === "text" && typeof part.text === "string",
		)
		.map((part) => part.text)
		.join("\n");
}
