/**
 * The portable form of a hook command, for config files a team commits: no
 * path of any machine. In POSIX sh, it runs the first boulder it finds: the
 * project's devDependency, the copy `boulder install` linked for this user
 * (under `$XDG_DATA_HOME`), or a program of boulder's on the PATH (a global
 * install). With none, it does `otherwise` (a notice, or a quiet exit), so a
 * teammate without boulder sees no hook errors. Every branch ends in `exec`
 * or in `otherwise`; nothing forks before the hook runs (`[` and `command -v`
 * are built in).
 * Every `exec` sets `NODE_EXTRA_CA_CERTS` aside (`HAND_OVER`, `hook-form.ts`).
 */
import { PACKAGE_NAME } from "./config-file.js";
import { HAND_OVER, HOOK_MARKER, PORTABLE_TAG } from "./hook-form.js";

export interface PortableFinder {
	/**
	 * The variable the harness sets to the project's folder: `CLAUDE_PROJECT_DIR`;
	 * null: the harness names none (Codex), so the command looks upwards from
	 * the session's folder (`upwards`).
	 */
	projectDirVar: string | null;
	/** The harness puts the folder in the command already quoted for the shell (Gemini CLI), so it goes outside double quotes. */
	projectDirQuoted?: boolean;
	/** The hook program, relative to the package root: `dist/hook/claude-code.cjs`. */
	bundle: string;
	/** The user's link, relative to `$XDG_DATA_HOME`: `boulder/claude-code-hook.cjs`; null: the harness's installer writes none. */
	link: string | null;
	/** The package's program on the PATH: `boulder-claude-code-hook`. */
	bin: string;
	/** The arguments the hook program gets before the marker: `Stop`, `copilot agentStop` (`hook-form.ts`). */
	args: string;
	/** The last resort: a shell command that must exit 0. */
	otherwise: string;
}

export function portableCommand(finder: PortableFinder): string {
	if (finder.projectDirVar === null) return upwards(finder);
	const own = `$${finder.projectDirVar}/node_modules/${PACKAGE_NAME}/${finder.bundle}`;
	const args = `${finder.args} ${HOOK_MARKER}=${PORTABLE_TAG}`;
	return [
		finder.projectDirQuoted ? `h=${own}` : `h="${own}"`,
		...(finder.link === null ? [] : [`[ -f "$h" ] || h="\${XDG_DATA_HOME:-$HOME/.local/share}/${finder.link}"`]),
		`[ -f "$h" ] && ${HAND_OVER} exec node "$h" ${args}`,
		`command -v ${finder.bin} >/dev/null && ${HAND_OVER} exec ${finder.bin} ${args}`,
		finder.otherwise,
	].join("; ");
}

/**
 * The finder of a harness that names no project folder: from `$PWD` upwards,
 * but never past the project's root (the first folder with a `.git` or a
 * `package.json`): a `node_modules` in a shared parent such as `/tmp` is
 * anyone's. What it finds runs only when the `node_modules` folder, the
 * package and the hook program are all the user's own (`-O`); the `${d%/*}`
 * walk is built in, so nothing forks either. No link: the walk is the project's.
 */
function upwards(finder: PortableFinder): string {
	const run = `${finder.args} ${HOOK_MARKER}=${PORTABLE_TAG}`;
	const own = `node_modules/${PACKAGE_NAME}/${finder.bundle}`;
	return [
		`d="$PWD"`,
		`while [ -n "$d" ] && [ ! -f "$d/${own}" ] && [ ! -e "$d/.git" ] && [ ! -f "$d/package.json" ]; do d="\${d%/*}"; done`,
		`[ -n "$d" ] && [ -O "$d/node_modules" ] && [ -O "$d/node_modules/${PACKAGE_NAME}" ] && [ -O "$d/${own}" ] && ${HAND_OVER} exec node "$d/${own}" ${run}`,
		`command -v ${finder.bin} >/dev/null && ${HAND_OVER} exec ${finder.bin} ${run}`,
		finder.otherwise,
	].join("; ");
}
