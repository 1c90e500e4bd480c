/**
 * `/boulder status | stop | go | why` inside OpenCode: declared through the
 * plugin's `config` hook (OpenCode refuses undeclared commands) and answered
 * by boulder itself, never by the model.
 *
 * How the answer avoids a model turn on OpenCode 1.18.33: `command.execute.before`
 * runs before OpenCode creates the command's message, and whatever the hook
 * does to the parts, OpenCode then runs a model turn; only an error thrown
 * from the hook keeps it from doing so. So the hub does the work here, shows
 * the answer as a toast, appends it to the session as a message that starts
 * no turn (`noReply`) and that the model never sees (`ignored`), and then
 * throws. The client's command request fails with OpenCode's generic error;
 * the answer is what the user reads. See docs/opencode-notes.md.
 *
 * The subcommands themselves are `../shared/boulder-command.ts`.
 */

import { ANSWERED_ERROR, COMMAND_DESCRIPTION, COMMAND_NAME, COMMAND_TEMPLATE } from "./messages.js";

/** Adds the `/boulder` command to OpenCode's config, unless the user declared one of that name. */
export function declareCommand(config: unknown): void {
	if (typeof config !== "object" || config === null) return;
	const cfg = config as { command?: Record<string, unknown> };
	cfg.command ??= {};
	if (cfg.command[COMMAND_NAME] !== undefined) return;
	cfg.command[COMMAND_NAME] = { template: COMMAND_TEMPLATE, description: COMMAND_DESCRIPTION };
}

/** Thrown from `command.execute.before` after the answer is shown: it keeps OpenCode from running a model turn. */
export class CommandAnswered extends Error {
	constructor() {
		super(ANSWERED_ERROR);
		this.name = "BoulderCommandAnswered";
	}
}
