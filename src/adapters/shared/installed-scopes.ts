/**
 * Where boulder is installed for a harness: the scopes whose settings file
 * holds boulder's entries. Only reads. `boulder uninstall` without a scope
 * removes boulder from there, and `boulder install` warns about a second scope.
 */
import type { InstalledScope } from "../types.js";
import { readConfigText, samePath } from "./config-file.js";

/**
 * Each scope whose file(s) hold boulder's entries, in the order given.
 * Contract: a file that cannot be parsed throws its `BoulderError("settings-invalid")`,
 * so the person hears which file is in the way rather than a wrong "not installed".
 */
export async function scopesHolding<S extends string>(
	scopes: readonly S[],
	filesOf: (scope: S) => string | readonly string[],
	holds: (text: string, file: string) => boolean,
): Promise<InstalledScope[]> {
	const found: InstalledScope[] = [];
	for (const scope of scopes) {
		const files = filesOf(scope);
		for (const file of typeof files === "string" ? [files] : files) {
			// Two scopes can name one file (the project scope run in the home folder): it is said once.
			if (found.some((at) => sameFile(at.file, file))) continue;
			const text = await readConfigText(file);
			if (text !== null && text.trim() !== "" && holds(text, file)) {
				found.push({ scope, file });
				break;
			}
		}
	}
	return found;
}

/** One file under two spellings (a home folder reached through a link) is one; a path that cannot be resolved is only itself. */
function sameFile(a: string, b: string): boolean {
	if (a === b) return true;
	try {
		return samePath(a, b);
	} catch {
		// A folder on the way that cannot be looked into: the reader of that file reports it.
		return false;
	}
}
