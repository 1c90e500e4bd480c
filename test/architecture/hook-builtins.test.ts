/**
 * The built-in modules a hook process loads at start: every module a hook
 * bundle holds is evaluated, so a built-in one of them imports is loaded on
 * every hook event, whether or not that event uses it (unless the build puts
 * it behind a stand-in that loads it on first use: `LAZY_HOOK_BUILTINS` in
 * `tsdown.config.ts`, which `test/adapters/hook/start-up.process.test.ts`
 * checks on the built hooks). Read from the source: the modules reachable
 * from the hook program and the command-hook dialects.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, readSources, type SourceFile } from "./imports.js";

const SRC = path.resolve(import.meta.dirname, "../../src");
const sources = readSources(SRC);

/** Built-ins a hook has no use for at start: each is loaded where it is needed, or not at all. */
const NOT_AT_START = ["node:timers/promises"];

function builtinsOfHook(all: readonly SourceFile[]): Map<string, string> {
	const byFile = new Map(all.map((source) => [source.file, source]));
	const roots = all
		.map((source) => source.file)
		.filter((file) => file === "adapters/hook/main.ts" || /^adapters\/[^/]+\/dialect\.ts$/.test(file));
	const seen = new Set<string>();
	const builtins = new Map<string, string>();
	const queue = [...roots];
	while (queue.length > 0) {
		const file = queue.pop() as string;
		if (seen.has(file)) continue;
		seen.add(file);
		const source = byFile.get(file);
		if (source === undefined) continue;
		for (const edge of importsOf(source)) {
			if (!edge.external) queue.push(edge.to);
			else if (edge.to.startsWith("node:") && !builtins.has(edge.to)) builtins.set(edge.to, file);
		}
	}
	return builtins;
}

describe("the built-ins a hook loads at start", () => {
	it("sees the hook program and the dialects, so the check below cannot pass on nothing", () => {
		const builtins = builtinsOfHook(sources);
		expect(builtins.has("node:fs")).toBe(true);
		expect(builtins.has("node:path")).toBe(true);
	});

	it("loads none a hook has no use for at start", () => {
		const builtins = builtinsOfHook(sources);
		expect(NOT_AT_START.filter((name) => builtins.has(name)).map((name) => `${builtins.get(name)}: ${name}`)).toEqual(
			[],
		);
	});

	it("catches a dialect importing one", () => {
		const made = [
			...sources,
			{ file: "adapters/oops/dialect.ts", text: 'import { setTimeout } from "node:timers/promises";' },
		];
		expect(builtinsOfHook(made).get("node:timers/promises")).toBe("adapters/oops/dialect.ts");
	});
});
