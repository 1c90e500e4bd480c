/**
 * The README stays true to the repository: it links every page in docs/,
 * names no file that is not there (no DESIGN.md), and its command table
 * lists every command and every harness the CLI has.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ADAPTERS } from "../../src/adapters/registry.js";
import { COMMANDS } from "../../src/cli/commands/index.js";

const root = path.resolve(import.meta.dirname, "..", "..");
const readme = readFileSync(path.join(root, "README.md"), "utf8");
const docs = readdirSync(path.join(root, "docs")).filter((name) => name.endsWith(".md"));
const commands = readme.slice(readme.indexOf("## Commands"), readme.indexOf("## Dashboard"));

describe("the README", () => {
	it.each(docs)("links docs/%s", (name) => {
		expect(readme).toContain(`](docs/${name})`);
	});

	it("links only files that exist, and names no DESIGN.md unless there is one", () => {
		for (const [, target] of readme.matchAll(/\]\(((?:docs|schema)\/[^)#]+)\)/g)) {
			expect(existsSync(path.join(root, target as string)), target).toBe(true);
		}
		for (const text of [readme, ...docs.map((name) => readFileSync(path.join(root, "docs", name), "utf8"))]) {
			if (!existsSync(path.join(root, "DESIGN.md"))) expect(text).not.toContain("DESIGN.md");
		}
	});

	it("lists every command and every harness in its command table", () => {
		for (const entry of COMMANDS)
			expect(commands, entry.name).toMatch(new RegExp(`\`boulder ([a-z /]+ )?${entry.name}\\b`));
		for (const adapter of ADAPTERS) expect(commands).toContain(`\`boulder install / uninstall ${adapter.name}\``);
	});

	it("says what orchestrate mode is and what `[/]` means", () => {
		expect(readme).toContain("**Orchestrate mode.**");
		expect(readme).toContain("`[/]` in progress");
	});
});
