/**
 * How a harness's hook command is spelled, as data (`CommandSpelling`), the
 * one function that writes it in either form (pinned, or portable with the
 * one finder) and the one that reads it back. Light on purpose: the hook
 * bundle may load a dialect that builds on it.
 */
import { type OurCommand, ourCommandReader } from "../shared/hook-command.js";
import {
	BOULDER_HOOK_BIN,
	BOULDER_HOOK_BUNDLE,
	HOOK_MARKER,
	type HookForm,
	hookArguments,
	isPortable,
	PORTABLE_TAG,
	pinnedCommand,
} from "../shared/hook-form.js";
import { BOULDER_HOOK_LINK, type HookLink } from "../shared/hook-link.js";
import { portableCommand } from "../shared/portable-command.js";

export interface CommandSpelling {
	/** The harness's word in the hook program's arguments (`boulder-hook.cjs codex Stop`); null: none (Claude Code's own program). */
	harness: string | null;
	/** The harness's project-folder variable, where the portable command looks first; null: it walks up from `$PWD` (Codex). */
	projectDirVar: string | null;
	/** The harness puts the folder into the command already quoted (Gemini CLI). */
	projectDirQuoted?: boolean;
	/** The hook program, relative to the package root. */
	bundle: string;
	/** The same program on the PATH (a global install). */
	bin: string;
	/** The per-user link the portable command also tries, which a project install writes; null: none. */
	link: HookLink | null;
	/** JSON the portable SessionStart prints where it finds no boulder (the harness shows it); none: it exits quietly. */
	notInstalled?: string;
	/** Makes a path one shell word in the pinned form (Claude Code keeps `${CLAUDE_PLUGIN_ROOT}` expandable). */
	quote?: (word: string) => string;
}

/** The shell command the harness runs for `word` (an event, or a registration's own word). */
export function hookCommand(spelling: CommandSpelling, form: HookForm, word: string): string {
	const args = hookArguments(spelling.harness, word);
	if (!isPortable(form)) return pinnedCommand(form, args, spelling.quote);
	const notice = word === "SessionStart" && spelling.notInstalled;
	return portableCommand({
		projectDirVar: spelling.projectDirVar,
		projectDirQuoted: spelling.projectDirQuoted,
		bundle: spelling.bundle,
		link: spelling.link?.link ?? null,
		bin: spelling.bin,
		args,
		otherwise: notice ? `echo '${spelling.notInstalled}'` : "exit 0",
	});
}

/** Reads back the commands boulder installs for a harness; null for anyone else's. */
export function commandReader(spelling: CommandSpelling): (command: unknown) => OurCommand | null {
	return ourCommandReader({
		harness: spelling.harness,
		marker: HOOK_MARKER,
		portableTag: PORTABLE_TAG,
		bin: spelling.bin,
	});
}

/**
 * The spelling of a harness that runs `boulder-hook.cjs <harness> <event>` (all but Claude Code), on the
 * PATH as `boulder-hook`, with the one user's link that serves them all unless `rest` says otherwise.
 */
export function boulderHook(
	harness: string,
	projectDirVar: string | null,
	rest: Partial<CommandSpelling> = {},
): CommandSpelling {
	return {
		harness,
		projectDirVar,
		bundle: BOULDER_HOOK_BUNDLE,
		bin: BOULDER_HOOK_BIN,
		link: BOULDER_HOOK_LINK,
		...rest,
	};
}
