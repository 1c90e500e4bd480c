/**
 * `/boulder status | stop | go | why` as every in-process adapter answers it
 * (OpenCode's command, pi's command): the subcommand is done against the
 * engine and the answer is returned as plain text. How the harness declares
 * the command and shows the answer stays in its adapter.
 *
 * `stop` and `go` act on the session through the engine, which persists
 * them: a stop holds across restarts of the harness.
 */

import type { Clock } from "../../core/clock.js";
import type { Engine, SessionRef } from "../../engine/engine.js";
import { renderStatus } from "../../present/render/status.js";
import { renderWhy } from "../../present/render/why.js";
import { plainStyle } from "../../present/style.js";
import { terminalSafe } from "../../present/terminal-safe.js";
import { ANSWER } from "./boulder-command-text.js";

/** Who the engine and the log say turned continuation off or on. */
export const STOP_BY = "/boulder stop";
export const GO_BY = "/boulder go";

const WHY_LINES = 10;

export type Subcommand = "status" | "stop" | "go" | "why" | "help";

export function parseSubcommand(args: string): { sub: Subcommand; unknown: string | null } {
	const word = args.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
	if (word === "") return { sub: "help", unknown: null };
	if (word === "status" || word === "stop" || word === "go" || word === "why" || word === "help") {
		return { sub: word, unknown: null };
	}
	return { sub: "help", unknown: word };
}

export interface CommandContext {
	engine: Engine;
	clock: Clock;
	ref: SessionRef;
}

export interface CommandResult {
	text: string;
	/** What changed, so the hub can cancel a countdown or decide again. */
	effect: "stopped" | "resumed" | null;
}

/** Does what the subcommand says and returns the answer. Contract: throws only what the engine or store throws. */
export async function runSubcommand(args: string, context: CommandContext): Promise<CommandResult> {
	const result = await answer(args, context);
	// The answer shows titles, ids and the user's own words: never a raw control sequence.
	return { ...result, text: terminalSafe(result.text) };
}

async function answer(args: string, context: CommandContext): Promise<CommandResult> {
	const { sub, unknown } = parseSubcommand(args);
	switch (sub) {
		case "help":
			return { text: unknown ? `${ANSWER.unknown(unknown)}\n${ANSWER.usage}` : ANSWER.usage, effect: null };
		case "status":
			return { text: await statusText(context), effect: null };
		case "why":
			return { text: await whyText(context), effect: null };
		case "stop":
			return stop(context);
		case "go":
			return go(context);
	}
}

async function stop({ engine, ref }: CommandContext): Promise<CommandResult> {
	const already = (await engine.sessionSwitch(ref)).stoppedBy !== null;
	if (already) return { text: ANSWER.stoppedAlready, effect: "stopped" };
	await engine.stopSession(ref, STOP_BY);
	return { text: ANSWER.stopped, effect: "stopped" };
}

async function go({ engine, ref }: CommandContext): Promise<CommandResult> {
	await engine.goSession(ref, GO_BY);
	const { changed: worktreeToo } = await engine.setWorktreeStopped(false, GO_BY);
	return { text: ANSWER.resumed(worktreeToo), effect: "resumed" };
}

async function statusText({ engine, clock, ref }: CommandContext): Promise<string> {
	const view = await engine.worktreeStatus();
	const status = renderStatus({ now: clock.now(), all: false, worktrees: [view], vanished: [] }, plainStyle);
	return `${status}\n${ANSWER.sessionLine((await engine.sessionSwitch(ref)).stoppedBy)}`;
}

async function whyText({ engine, clock, ref }: CommandContext): Promise<string> {
	const shown = await engine.explain({ lines: WHY_LINES, session: ref.sessionId });
	return renderWhy(shown, clock.now(), plainStyle);
}
