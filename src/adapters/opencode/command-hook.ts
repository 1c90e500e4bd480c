/**
 * `command.execute.before` for `/boulder`: runs the subcommand
 * (`slash-command.ts`) against the engine, lets the hub act on what changed,
 * shows the answer as a toast and as a message the model never sees, and
 * then throws `CommandAnswered`: on OpenCode 1.18.33 only a throw keeps the
 * command from becoming a model turn (see docs/opencode-notes.md).
 *
 * Contract: for `/boulder`, always rejects with `CommandAnswered` once the
 * answer was shown (or showing it failed and was recorded); for any other
 * command, resolves at once and does nothing.
 */
import type { Clock } from "../../core/clock.js";
import type { Engine, SessionRef } from "../../engine/engine.js";
import { runSubcommand } from "../shared/boulder-command.js";
import { ANSWER } from "../shared/boulder-command-text.js";
import type { OpenCodeApi, PromptRoute } from "./api.js";
import { answerPart } from "./delivery.js";
import { messageOf } from "./event-read.js";
import { COMMAND_NAME } from "./messages.js";
import { CommandAnswered } from "./slash-command.js";

export interface CommandInput {
	command: string;
	sessionID: string;
	arguments: string;
}

/** What the hook needs from the hub, for the session the command was run in. */
export interface CommandSession {
	ref(): SessionRef;
	engine(): Promise<Engine>;
	/** Where to append the answer: the agent and model of the last real user message. */
	route(): Promise<PromptRoute>;
	/** `/boulder stop` took effect: nothing may be sent now. */
	stopped(): void;
	/** `/boulder go` took effect: an idle session is decided again. */
	resumed(): void;
	recordError(where: string, error: unknown): Promise<void>;
}

export interface CommandHookOptions {
	api: OpenCodeApi;
	clock: Clock;
	/** Called only for `/boulder`, so other commands leave no trace in the hub. */
	session(sessionId: string): CommandSession;
}

/** How long the answer's toast stays up. */
const TOAST_MS = 8_000;

export function commandHook(options: CommandHookOptions): (input: CommandInput) => Promise<void> {
	return async (input) => {
		if (input.command !== COMMAND_NAME) return;
		const session = options.session(input.sessionID);
		const text = await answer(input.arguments ?? "", session, options.clock);
		await show(text, input.sessionID, session, options.api);
		throw new CommandAnswered();
	};
}

async function answer(args: string, session: CommandSession, clock: Clock): Promise<string> {
	try {
		const engine = await session.engine();
		const result = await runSubcommand(args, { engine, clock, ref: session.ref() });
		if (result.effect === "stopped") session.stopped();
		if (result.effect === "resumed") session.resumed();
		return result.text;
	} catch (error) {
		await session.recordError("answering /boulder", error);
		return ANSWER.failed(messageOf(error));
	}
}

async function show(text: string, sessionId: string, session: CommandSession, api: OpenCodeApi): Promise<void> {
	let route: PromptRoute = { agent: null, model: null };
	try {
		route = await session.route();
	} catch (error) {
		await session.recordError("reading where to append /boulder's answer", error);
	}
	const shown = await Promise.allSettled([
		api.toast(text, "info", TOAST_MS),
		api.appendNoReply(sessionId, [answerPart(text)], route),
	]);
	for (const result of shown) {
		if (result.status === "rejected") await session.recordError("showing /boulder's answer", result.reason);
	}
}
