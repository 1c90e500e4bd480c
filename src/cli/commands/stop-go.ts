/**
 * `boulder stop` / `boulder go`: without `--session`, the worktree-wide
 * switch, kept in the works file so it holds across restarts until turned
 * back on; with `--session ID --harness H`, that one session only.
 *
 * Neither reads the config: a broken config must never keep the user from
 * stopping the agent. Outside any project they hold too: that folder's state
 * lives under the user's state folder.
 */
import type { Command } from "commander";
import { defaultConfig } from "../../core/config.js";
import { BoulderError } from "../../core/errors.js";
import { Engine, type SessionRef } from "../../engine/engine.js";
import { filePlans } from "../../engine/plan-files.js";
import { resolveSession } from "../../engine/session-lookup.js";
import { setStopped } from "../../engine/works-ops.js";
import { handoverLines } from "../../present/render/start.js";
import type { Cli } from "../context.js";
import { EXIT, type ExitCode } from "../exit-codes.js";

interface SessionOptions {
	session?: string;
	harness?: string;
}

/** Who the engine and the log say turned it off or on. */
export const STOP_BY = "`boulder stop`";
export const GO_BY = "`boulder go`";

export function registerStop(program: Command, cli: Cli): void {
	withSessionOptions(
		program.command("stop").description("stop continuation in this worktree (or one session) until `boulder go`"),
	).action(async (options: SessionOptions) => {
		cli.exitCode = await toggle(cli, true, options);
	});
}

export function registerGo(program: Command, cli: Cli): void {
	withSessionOptions(
		program.command("go").description("turn continuation back on in this worktree (or one session)"),
	).action(async (options: SessionOptions) => {
		cli.exitCode = await toggle(cli, false, options);
	});
}

function withSessionOptions(command: Command): Command {
	return command
		.option("--session <id>", "only this session: its id, or the start of it that no other session shares")
		.option("--harness <name>", "the harness of --session, when two harnesses share the id: claude-code, opencode, …");
}

async function toggle(cli: Cli, stop: boolean, options: SessionOptions): Promise<ExitCode> {
	const asked = sessionRef(cli, options);
	const handle = await cli.openState();
	const { store } = handle;
	const c = cli.colors();
	if (asked) {
		// Only a session boulder has seen, named whole or by a unique prefix: a typo must not create one.
		const ref: SessionRef = await resolveSession(store, asked.sessionId, asked.harness);
		// The engine's stop/go touch only the session's state, never the config.
		const engine = new Engine({ store, config: defaultConfig(), clock: cli.clock, plans: filePlans });
		if (stop) await engine.stopSession(ref, STOP_BY);
		else await engine.goSession(ref, GO_BY);
		await cli.noteWorktree(handle);
		const who = `${ref.harness} session ${ref.sessionId}`;
		cli.out(
			stop
				? `${c.yellow("Stopped")} continuation for ${who}; \`boulder go --session ${ref.sessionId} --harness ${ref.harness}\` turns it on.`
				: `${c.green("On")} again for ${who}.`,
		);
		return EXIT.ok;
	}
	const { changed, warning, handedOver } = await setStopped(
		{ store, clock: cli.clock, plans: filePlans },
		stop,
		stop ? STOP_BY : GO_BY,
	);
	if (warning) cli.err(cli.errColors.yellow(`boulder: warning: ${warning}`));
	await cli.noteWorktree(handle);
	const wasStopped = stop ? !changed : changed;
	if (stop) {
		cli.out(
			`${c.yellow("Stopped")}: boulder will not nudge any session in ${handle.worktree} until \`boulder go\`. This holds across restarts.`,
		);
	} else {
		cli.out(
			wasStopped
				? `${c.green("On")} again: boulder continues the active work in ${handle.worktree}.`
				: `Continuation was not stopped in ${handle.worktree}.`,
		);
		if (handedOver) cli.out(handoverLines(handedOver.sessions, c).join("\n"));
		else if (!wasStopped) cli.out("Nothing changed.");
	}
	return EXIT.ok;
}

/** The session asked for, as typed: `--harness` may be left out when the id alone names one. */
function sessionRef(cli: Cli, options: SessionOptions): { harness?: string; sessionId: string } | null {
	if (options.session === undefined && options.harness === undefined) return null;
	if (!options.session) {
		throw new BoulderError("usage", "--harness goes with --session: `--session ID --harness claude-code`");
	}
	if (options.harness === undefined) return { sessionId: options.session };
	const known = cli.adapters.names();
	if (!known.includes(options.harness)) {
		throw new BoulderError(
			"usage",
			`--harness: no harness named "${options.harness}"; boulder knows: ${known.join(", ")}`,
		);
	}
	return { harness: options.harness, sessionId: options.session };
}
