/**
 * The plan-parse cache (`state/plan-parse-cache.ts`) keeps parses made by
 * one format of the parser (`PLAN_PARSE_FORMAT`): a parse kept by an older
 * boulder must not be taken for what this one reads. So the parser's code is
 * held to the format: when it changes, this test fails until the format is
 * raised (and the new fingerprint added below). Comments and blank lines do
 * not count.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PLAN_PARSE_FORMAT } from "../../src/core/plan-parser.js";

/** What each format's parser code was, by fingerprint. */
const FORMATS: Record<number, string> = {
	1: "de04d9a957628c58",
};

const PARSER_FILES = [
	"plan-parser.ts",
	"plan-body.ts",
	"markdown-blocks.ts",
	"markdown-html.ts",
	"front-matter.ts",
	"clip.ts",
];

function fingerprint(): string {
	const hash = createHash("sha256");
	for (const file of PARSER_FILES) {
		const code = readFileSync(new URL(`../../src/core/${file}`, import.meta.url), "utf8")
			.split(/\r?\n/)
			.map((line) => line.trim())
			.filter((line) => line !== "" && !line.startsWith("//") && !line.startsWith("/*") && !line.startsWith("*"));
		hash.update(`${file}\n${code.join("\n")}\n`);
	}
	return hash.digest("hex").slice(0, 16);
}

describe("the plan parser's format", () => {
	it("names the parser's code: a change to what it reads raises PLAN_PARSE_FORMAT", () => {
		expect(
			FORMATS[PLAN_PARSE_FORMAT],
			`the plan parser changed (fingerprint ${fingerprint()}): raise PLAN_PARSE_FORMAT in src/core/plan-parser.ts and add the fingerprint for it here`,
		).toBe(fingerprint());
	});
});
