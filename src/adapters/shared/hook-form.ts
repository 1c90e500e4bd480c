/**
 * The two forms of a hook command boulder installs, shared by every
 * command-hook harness:
 *
 * - pinned: this machine's node and the absolute path of one copy of the hook
 *   program, `<node> <program> [<harness>] <event> --boulder-hook=<version>`
 *   (user settings, which stay on this machine; the version lets `boulder
 *   doctor` tell an outdated install);
 * - portable: no path of any machine, for a project file a team commits
 *   (`portable-command.ts` builds it), marked `--boulder-hook=portable`.
 *
 * `hook-command.ts` reads both back.
 *
 * Both start the hook without `NODE_EXTRA_CA_CERTS` (`HAND_OVER`): node reads
 * and parses that file before it runs anything (about 30 ms for a system
 * bundle, `bench/extra-ca-certs.mjs`), and the hook makes no TLS connection.
 * The hook program gives it back to the commands it starts (`handBackCaCerts`).
 */
import { shellWord } from "./shell-words.js";

/** Every command boulder installs carries this, so uninstall removes exactly boulder's entries. */
export const HOOK_MARKER = "--boulder-hook";

/** The marker's value in portable commands, which name no version: any installed boulder runs them. */
export const PORTABLE_TAG = "portable";

/** The one hook program of the command-hook harnesses, relative to the package root (`boulder-hook <harness> <event>`). */
export const BOULDER_HOOK_BUNDLE = "dist/hook/boulder-hook.cjs";

/** The same program, as a global install puts it on the PATH. */
export const BOULDER_HOOK_BIN = "boulder-hook";

/** Where an installed command keeps the user's `NODE_EXTRA_CA_CERTS` while the hook runs without it. */
export const CA_CERTS_HANDOVER = "BOULDER_NODE_EXTRA_CA_CERTS";

/** Put before the hook's program (POSIX sh): the handover first, as it reads the variable the next assignment blanks. */
export const HAND_OVER = `${CA_CERTS_HANDOVER}="$NODE_EXTRA_CA_CERTS" NODE_EXTRA_CA_CERTS=`;

/**
 * Gives the commands the hook starts (verify commands, the fleet shipper) the
 * `NODE_EXTRA_CA_CERTS` the installed command set aside: as it was, or unset
 * when it was unset or empty. An environment without the handover is left as it is.
 */
export function handBackCaCerts(env: NodeJS.ProcessEnv): void {
	const kept = env[CA_CERTS_HANDOVER];
	if (kept === undefined) return;
	delete env[CA_CERTS_HANDOVER];
	if (kept === "") delete env.NODE_EXTRA_CA_CERTS;
	else env.NODE_EXTRA_CA_CERTS = kept;
}

/** A pinned hook program. */
export interface HookProgram {
	/** The node binary, absolute (`node` in Claude Code's plugin). */
	node: string;
	/** The hook program, absolute (under `${CLAUDE_PLUGIN_ROOT}` in Claude Code's plugin). */
	bundle: string;
	/** Written into the marker, so `boulder doctor` can tell an outdated install. */
	version: string;
	/** The command runs in POSIX sh, so it can start the hook without `NODE_EXTRA_CA_CERTS` (`HAND_OVER`); absent: as written. */
	shell?: "sh";
}

/** The portable form: whichever installed boulder the command finds. */
export interface PortableHook {
	portable: true;
}

export const PORTABLE: PortableHook = { portable: true };

export type HookForm = HookProgram | PortableHook;

export function isPortable(form: HookForm): form is PortableHook {
	return "portable" in form && form.portable === true;
}

/** The program's arguments: `[<harness>] <event>`. */
export function hookArguments(harness: string | null, event: string): string {
	return harness === null ? event : `${harness} ${event}`;
}

/** The pinned command for `args` (`hookArguments`); `quote` makes a path one shell word. */
export function pinnedCommand(program: HookProgram, args: string, quote: (word: string) => string = shellWord): string {
	const lead = program.shell === "sh" ? `${HAND_OVER} ` : "";
	return `${lead}${quote(program.node)} ${quote(program.bundle)} ${args} ${HOOK_MARKER}=${program.version}`;
}

/** A hook entry's place in settings that group commands under a matcher (Claude Code, Codex, Qwen Code, Gemini CLI). */
export function groupedHook(
	hook: Record<string, unknown>,
	registration: { matcher?: string },
): Record<string, unknown> {
	return registration.matcher ? { matcher: registration.matcher, hooks: [hook] } : { hooks: [hook] };
}
