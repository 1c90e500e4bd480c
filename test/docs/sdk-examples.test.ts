/**
 * docs/sdk.md quotes the example programs the SDK end-to-end tests run
 * (`examples/sdk/*.ts`) exactly: each example is on the page, after a
 * `<!-- example: PATH -->` marker, byte for byte, so the page cannot show a
 * program that was not tested.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..", "..");
const page = readFileSync(path.join(root, "docs", "sdk.md"), "utf8");
const examples = readdirSync(path.join(root, "examples", "sdk")).filter((name) => name.endsWith(".ts"));

/** The code block after each example marker, by the path the marker names. */
function quotedExamples(text: string): Map<string, string> {
	const quoted = new Map<string, string>();
	for (const match of text.matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)```\n/g)) {
		quoted.set(match[1] as string, match[2] as string);
	}
	return quoted;
}

describe("docs/sdk.md", () => {
	const quoted = quotedExamples(page);

	it("has an example for each SDK the end-to-end tests drive", () => {
		expect(examples.sort()).toEqual(["claude.ts", "codex.ts", "opencode.ts", "pi.ts"]);
	});

	it.each(examples)("quotes examples/sdk/%s exactly", (name) => {
		expect(quoted.get(`examples/sdk/${name}`)).toBe(readFileSync(path.join(root, "examples", "sdk", name), "utf8"));
	});

	it("quotes no example that is not a tested file", () => {
		expect([...quoted.keys()].sort()).toEqual(examples.map((name) => `examples/sdk/${name}`).sort());
	});

	it("notices a quote that drifted from its file", () => {
		const drifted = page.replace("boulderHooks({ cwd, signal", "boulderHooks({ signal");
		expect(quotedExamples(drifted).get("examples/sdk/claude.ts")).not.toBe(
			readFileSync(path.join(root, "examples", "sdk", "claude.ts"), "utf8"),
		);
	});
});
