/**
 * Where a hook program's package is, from the program's path: for the doctor
 * checks of every command-hook harness. (The PATH lookup is
 * `engine/programs.ts`.)
 */
import path from "node:path";

/** `<root>/dist/hook/<program>.cjs` → `<root>`. */
export function rootOfBundle(bundle: string): string {
	return path.resolve(path.dirname(bundle), "..", "..");
}
