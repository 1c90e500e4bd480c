/**
 * The portable form of a hook command, for config files a team commits: no
 * path of any machine. In POSIX sh, it runs the first boulder it finds: the
 * project's devDependency, the copy `boulder install` linked for this user
 * (under `$XDG_DATA_HOME`), or a program of boulder's on the PATH (a global
 * install). With none, it does `otherwise` (a notice, or a quiet exit), so a
 * teammate without boulder sees no hook errors. Every branch ends in `exec`
 * or in `otherwise`; nothing forks before the hook runs (`[` and `command -v`
 * are built in).
 */
import { PACKAGE_NAME } from "./config-file.js";

export interface PortableFinder {
	/** The variable the harness sets to the project's folder: `CLAUDE_PROJECT_DIR`. */
	projectDirVar: string;
	/** The hook program, relative to the package root: `dist/hook/claude-code.cjs`. */
	bundle: string;
	/** The user's link, relative to `$XDG_DATA_HOME`: `boulder/claude-code-hook.cjs`. */
	link: string;
	/** The package's program on the PATH: `boulder-claude-code-hook`. */
	bin: string;
	/** The arguments the hook program gets: `Stop --boulder-hook=portable`. */
	args: string;
	/** The last resort: a shell command that must exit 0. */
	otherwise: string;
}

export function portableCommand(finder: PortableFinder): string {
	return [
		`h="$${finder.projectDirVar}/node_modules/${PACKAGE_NAME}/${finder.bundle}"`,
		`[ -f "$h" ] || h="\${XDG_DATA_HOME:-$HOME/.local/share}/${finder.link}"`,
		`[ -f "$h" ] && exec node "$h" ${finder.args}`,
		`command -v ${finder.bin} >/dev/null && exec ${finder.bin} ${finder.args}`,
		finder.otherwise,
	].join("; ");
}
