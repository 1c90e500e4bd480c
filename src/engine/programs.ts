/**
 * Programs found the way the shell finds them: for the doctor checks (is
 * boulder's hook program on the PATH?) and for \`boulder install\` (which
 * harnesses does this machine have?).
 */
import { accessSync, constants } from "node:fs";
import path from "node:path";

/** The first executable `name` on the environment's PATH, as `command -v` finds it; null when there is none. */
export function whichProgram(name: string, env: NodeJS.ProcessEnv): string | null {
	const names = process.platform === "win32" ? [`${name}.cmd`, name] : [name];
	for (const dir of (env.PATH ?? "").split(path.delimiter)) {
		if (dir === "") continue;
		for (const candidate of names) {
			const file = path.join(dir, candidate);
			try {
				accessSync(file, constants.X_OK);
				return file;
			} catch (error) {
				// Not here, or not executable: the shell looks further along the PATH too.
				const code = (error as NodeJS.ErrnoException).code;
				if (code !== "ENOENT" && code !== "EACCES" && code !== "ENOTDIR") throw error;
			}
		}
	}
	return null;
}
