/**
 * The server serves the page exactly the modules its script imports: the list
 * in `page-modules.ts` is the closure of `client/app.ts`'s runtime imports
 * (type-only imports are erased), so a new page module cannot be forgotten.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PAGE_MODULES } from "../../src/ui/page-modules.js";

const src = fileURLToPath(new URL("../../src/", import.meta.url));
const RUNTIME_IMPORT = /^import\s+(?!type\s)[^;]*?from\s+"(\.{1,2}\/[^"]+)"/gms;

function reached(entry: string): Set<string> {
	const seen = new Set<string>();
	const todo = [entry];
	while (todo.length > 0) {
		const file = todo.pop() as string;
		if (seen.has(file)) continue;
		seen.add(file);
		const text = readFileSync(path.join(src, file.replace(/\.js$/, ".ts")), "utf8");
		for (const match of text.matchAll(RUNTIME_IMPORT)) {
			todo.push(path.posix.join(path.posix.dirname(file), match[1] as string));
		}
		for (const match of text.matchAll(/^export\s+(?!type\s)[^;]*?from\s+"(\.{1,2}\/[^"]+)"/gms)) {
			todo.push(path.posix.join(path.posix.dirname(file), match[1] as string));
		}
	}
	return seen;
}

describe("the page's modules", () => {
	it("are exactly what the page's script imports", () => {
		expect([...PAGE_MODULES].sort()).toEqual([...reached("ui/client/app.js")].sort());
	});
});
