/**
 * Where the programs boulder's hook commands run are found, as the shell and
 * the package layout find them: for the doctor checks of every command-hook
 * harness.
 */
import { accessSync, constants } from "node:fs";
import path from "node:path";

/** `<root>/dist/hook/<program>.cjs` → `<root>`. */
export function rootOfBundle(bundle: string): string {
	return path.resolve(path.dirname(bundle), "..", "..");
}

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
