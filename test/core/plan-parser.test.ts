import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parsePlan, planView } from "../../src/core/plan-parser.js";

const RUNS = 1_000;

const lines = (...text: string[]): string => text.join("\n");
const titles = (text: string): string[] => parsePlan(text).items.map((item) => item.title);

describe("plan items", () => {
	it("reads a numbered plan with acceptance criteria as one item per task", () => {
		const plan = parsePlan(
			lines(
				"# Migrate the billing service",
				"",
				"## TODOs",
				"",
				"1. [x] Extract the invoice model",
				"   - [x] Model has its own module",
				"   - [x] Old imports re-export it",
				"2. [ ] Move the tax rules",
				"   **Acceptance criteria**",
				"   - [ ] Rules load from config",
				"   - [ ] Tests cover each region",
				"3. [ ] Delete the legacy adapter",
			),
			"billing.md",
		);
		expect(plan.items.map((item) => [item.title, item.status, item.line])).toEqual([
			["Extract the invoice model", "completed", 5],
			["Move the tax rules", "pending", 8],
			["Delete the legacy adapter", "pending", 12],
		]);
		expect(plan.counts).toEqual({ total: 3, open: 2, completed: 1, cancelled: 0, blocked: 0 });
		expect(plan.next?.title).toBe("Move the tax rules");
		expect(plan.source).toBe("billing.md");
		expect(plan.errors).toEqual([]);
	});

	it("does not count nested acceptance criteria as items", () => {
		const plan = parsePlan(
			lines(
				"- [ ] Add login",
				"  - [x] Form renders",
				"  - [ ] Errors show inline",
				"    - [ ] Even deeper criterion",
				"- [x] Add logout",
			),
		);
		expect(plan.counts.total).toBe(2);
		expect(plan.items[0]?.criteria).toEqual([
			{ text: "Form renders", checked: true, line: 2 },
			{ text: "Errors show inline", checked: false, line: 3 },
			{ text: "Even deeper criterion", checked: false, line: 4 },
		]);
		expect(plan.items[1]?.criteria).toEqual([]);
	});

	it("keeps criteria with their item across blank lines inside the item", () => {
		const plan = parsePlan(lines("- [ ] Parent", "", "  Some notes.", "", "  - [ ] Criterion", "- [ ] Next"));
		expect(titles(lines("- [ ] Parent", "", "  Some notes.", "", "  - [ ] Criterion", "- [ ] Next"))).toEqual([
			"Parent",
			"Next",
		]);
		expect(plan.items[0]?.criteria.map((criterion) => criterion.text)).toEqual(["Criterion"]);
	});

	it("reads all four marks and [/] as in progress", () => {
		const plan = parsePlan(
			lines("- [ ] open", "- [x] done", "- [X] done too", "- [~] blocked", "- [-] cancelled", "- [/] started"),
		);
		expect(plan.items.map((item) => item.status)).toEqual([
			"pending",
			"completed",
			"completed",
			"blocked",
			"cancelled",
			"in_progress",
		]);
	});

	it("accepts -, * and + bullets and both ordered styles", () => {
		expect(
			titles(lines("- [ ] dash", "* [ ] star", "+ [ ] plus", "1. [ ] dot", "2) [ ] paren", "10. [x] ten")),
		).toEqual(["dash", "star", "plus", "dot", "paren", "ten"]);
	});

	it("treats checkboxes inside fenced code as text", () => {
		const text = lines(
			"- [ ] Real one",
			"```markdown",
			"- [ ] example in a fence",
			"```",
			"~~~ {.md title='x'}",
			"- [x] example in a tilde fence",
			"```",
			"- [ ] still inside: a backtick line does not close a tilde fence",
			"~~~",
			"````",
			"```",
			"- [ ] inside a four-backtick fence",
			"```",
			"````",
			"- [ ] Real two",
		);
		expect(titles(text)).toEqual(["Real one", "Real two"]);
	});

	it("treats checkboxes inside HTML comments as text", () => {
		const text = lines(
			"- [ ] Kept",
			"<!--",
			"- [ ] Shelved for now",
			"  - [ ] its criterion",
			"-->",
			"<!-- - [ ] one-line comment -->",
			"  <!-- note --> - [ ] not a list line either",
			"- [x] Also kept",
		);
		expect(titles(text)).toEqual(["Kept", "Also kept"]);
	});

	it("reports each checkbox a fence hides when it is never closed and runs to the end of the plan", () => {
		const plan = parsePlan(
			lines("- [ ] Before", "```sh", "- [ ] after an unclosed fence", "npm test", "  - [x] to the end"),
		);
		expect(plan.items.map((item) => item.title)).toEqual(["Before"]);
		const reason =
			"this checkbox is inside a code fence opened on line 2 that is never closed, so it is not counted; close the fence above this line";
		expect(plan.errors).toEqual([
			{ line: 3, reason },
			{ line: 5, reason },
		]);
	});

	it("runs a fence that is never closed to the end without an error when it hides no checkbox", () => {
		const plan = parsePlan(lines("- [x] Before", "```sh", "npm test"));
		expect(plan.items.map((item) => item.title)).toEqual(["Before"]);
		expect(plan.errors).toEqual([]);
	});

	it("treats a fence inside an item as the item's code", () => {
		const plan = parsePlan(lines("- [ ] Document the API", "  ```md", "  - [ ] template row", "  ```", "- [ ] Next"));
		expect(plan.items.map((item) => item.title)).toEqual(["Document the API", "Next"]);
		expect(plan.items[0]?.criteria).toEqual([]);
	});

	it("does not mistake inline code for a fence", () => {
		expect(titles(lines("```inline``` code", "- [ ] Counted"))).toEqual(["Counted"]);
	});

	it("reads CRLF and lone-CR files exactly like LF files", () => {
		const body = ["---", "verify: npm test", "---", "# Plan", "- [ ] One  ", "  - [x] crit", "- [x] Two"];
		const lf = parsePlan(body.join("\n"));
		expect(parsePlan(body.join("\r\n"))).toEqual(lf);
		expect(parsePlan(body.join("\r"))).toEqual(lf);
		expect(lf.items[0]?.title).toBe("One");
		expect(lf.frontMatter.verify).toEqual(["npm test"]);
	});

	it("keeps unicode titles whole", () => {
		expect(
			titles(lines("- [ ] 实现登录页面", "- [x] 🚀 Ship it 🎉", "- [ ] Ünïcödé — “quotes”", "- [ ] 👩‍💻 pair")),
		).toEqual(["实现登录页面", "🚀 Ship it 🎉", "Ünïcödé — “quotes”", "👩‍💻 pair"]);
	});

	it("keeps a Unicode line separator inside a title, since only CR and LF end a line", () => {
		expect(titles("- [ ] first\u2028second")).toEqual(["first\u2028second"]);
	});

	it("trims trailing spaces and tabs from titles", () => {
		expect(titles("- [ ]   Padded title \t  ")).toEqual(["Padded title"]);
	});

	it("gives an empty plan no items and no next", () => {
		for (const text of ["", "\n\n", "# Just a heading\n\nSome prose."]) {
			const plan = parsePlan(text);
			expect(plan.items).toEqual([]);
			expect(plan.next).toBeNull();
			expect(plan.counts).toEqual({ total: 0, open: 0, completed: 0, cancelled: 0, blocked: 0 });
		}
	});

	it("counts a plan whose items are all [~] as blocked, not complete and not open", () => {
		const plan = parsePlan(lines("- [~] Waiting for API keys", "- [~] Waiting for legal review"));
		expect(plan.counts).toEqual({ total: 2, open: 0, completed: 0, cancelled: 0, blocked: 2 });
		expect(plan.next).toBeNull();
	});

	it("records the nearest heading above each item as its section", () => {
		const plan = parsePlan(
			lines(
				"- [ ] Before any heading",
				"# Phase 1 #",
				"- [ ] A",
				"### Sub step",
				"- [ ] B",
				"## Final Verification Wave",
				"- [ ] C",
			),
		);
		expect(plan.items.map((item) => item.section)).toEqual([null, "Phase 1", "Sub step", "Final Verification Wave"]);
	});

	it("ends an item at a heading, so checkboxes after it are items again", () => {
		expect(titles(lines("- [ ] A", "## Next", "- [ ] B"))).toEqual(["A", "B"]);
	});

	it("does not count checkboxes nested under a plain bullet", () => {
		expect(titles(lines("- Phase 1", "  - [ ] nested under a note", "- [ ] Top level"))).toEqual(["Top level"]);
	});

	it("treats a checkbox indented less than its predecessor's text as a sibling", () => {
		const plan = parsePlan(
			lines("1. [ ] First", "   - [ ] three spaces: under its text", "  - [ ] two spaces: left of its text"),
		);
		expect(plan.items.map((item) => item.title)).toEqual(["First", "two spaces: left of its text"]);
		expect(plan.items[0]?.criteria.map((criterion) => criterion.text)).toEqual(["three spaces: under its text"]);
	});

	it("does not count an indented code block as items", () => {
		expect(titles(lines("Intro.", "", "    - [ ] four spaces in: code", "", "- [ ] Real"))).toEqual(["Real"]);
	});

	it("ends an item at an unindented paragraph after a blank line", () => {
		const plan = parsePlan(lines("- [ ] A", "", "Prose between lists.", "  - [ ] after prose: top level again"));
		expect(plan.items.map((item) => item.title)).toEqual(["A", "after prose: top level again"]);
	});

	it("keeps a lazy continuation line inside its item", () => {
		const plan = parsePlan(lines("- [ ] A long title", "wrapped without indent", "  - [ ] criterion of A"));
		expect(plan.items.map((item) => item.title)).toEqual(["A long title"]);
		expect(plan.items[0]?.criteria).toHaveLength(1);
	});

	it("needs a space after the box and a single mark in it", () => {
		expect(titles(lines("- [x]glued", "- [] empty box", "- [xx] two marks", "- [ ] ok"))).toEqual(["ok"]);
	});

	it("reads a letter or digit in brackets as text, not a checkbox", () => {
		expect(titles(lines("- [1] Smith, 2019", "- [a] footnote", "- [ ] real"))).toEqual(["real"]);
	});

	it("counts an unknown punctuation mark as blocked and reports it", () => {
		const plan = parsePlan(lines("- [x] done", "- [?] unsure"));
		expect(plan.items[1]?.status).toBe("blocked");
		expect(plan.counts).toMatchObject({ total: 2, completed: 1, blocked: 1 });
		expect(plan.errors).toEqual([
			{
				line: 2,
				reason:
					"unknown checkbox mark [?]; use [ ] open, [x] done, [~] blocked or [-] cancelled (counted as blocked meanwhile)",
			},
		]);
	});

	it("reports a checkbox with no text and does not count it", () => {
		const plan = parsePlan(lines("- [ ]", "- [ ] Real"));
		expect(plan.items.map((item) => item.title)).toEqual(["Real"]);
		expect(plan.errors).toEqual([
			{ line: 1, reason: "this checkbox has no text after it, so it is not counted as an item" },
		]);
	});

	it("takes the first open item in file order as next", () => {
		expect(parsePlan(lines("- [x] a", "- [~] b", "- [-] c", "- [ ] d", "- [ ] e")).next?.title).toBe("d");
	});

	it("ignores a leading byte-order mark", () => {
		const plan = parsePlan("\uFEFF---\nname: Bom\n---\n- [ ] One");
		expect(plan.frontMatter.name).toBe("Bom");
		expect(plan.items[0]?.line).toBe(4);
	});
});

describe("plan blocks as CommonMark reads them", () => {
	it("ends a fence left open inside an item where the item ends, so the items after it still count", () => {
		const plan = parsePlan(
			lines("- [x] Add the parser", "  ```ts", "  const x = 1;", "- [ ] Write the tests", "- [ ] Update the docs"),
		);
		expect(plan.items.map((item) => [item.title, item.status])).toEqual([
			["Add the parser", "completed"],
			["Write the tests", "pending"],
			["Update the docs", "pending"],
		]);
		expect(plan.counts.open).toBe(2);
		expect(plan.errors).toEqual([]);
	});

	it("ends an HTML comment left open inside an item where the item ends, and reports the checkbox it hid", () => {
		const plan = parsePlan(lines("- [ ] Ship", "  <!-- later:", "  - [ ] shelved criterion", "- [ ] Announce"));
		expect(plan.items.map((item) => item.title)).toEqual(["Ship", "Announce"]);
		expect(plan.items[0]?.criteria).toEqual([]);
		expect(plan.errors).toEqual([
			{
				line: 3,
				reason:
					"this checkbox is inside an HTML comment opened on line 2 that is never closed, so it is not counted; close it with --> above this line",
			},
		]);
	});

	it("reports the checkboxes an HTML comment hides when it is never closed", () => {
		const plan = parsePlan(lines("- [x] Done", "<!--", "- [ ] shelved", "- [ ] forgotten"));
		expect(plan.items.map((item) => item.title)).toEqual(["Done"]);
		expect(plan.errors.map((error) => error.line)).toEqual([3, 4]);
	});

	it("treats checkboxes inside <pre> as text until </pre>, blank lines included", () => {
		const text = lines("<pre>", "- [ ] in pre", "", "- [ ] still in pre", "</pre>", "- [ ] Real");
		expect(titles(text)).toEqual(["Real"]);
		expect(parsePlan(text).errors).toEqual([]);
	});

	it("treats checkboxes inside <details> as text up to the first blank line, as CommonMark does", () => {
		const text = lines(
			"<details>",
			"<summary>Later</summary>",
			"- [ ] in the HTML block",
			"",
			"- [ ] after the blank line: an item",
			"</details>",
		);
		expect(titles(text)).toEqual(["after the blank line: an item"]);
		expect(parsePlan(text).errors).toEqual([]);
	});

	it("recognises every kind of HTML block: raw, comment, instruction, declaration, CDATA, block tag, any lone tag", () => {
		const kinds: [string, string][] = [
			["<script>", "</script>"],
			["<style>", "</style>"],
			["<textarea>", "</textarea>"],
			["<!--", "-->"],
			["<?php", "?>"],
			["<!DOCTYPE plan", ">"],
			["<![CDATA[", "]]>"],
			["<div class='later'>", ""],
			["<my-note>", ""],
		];
		for (const [open, close] of kinds) {
			expect(titles(lines("- [ ] Before", "", open, "- [ ] hidden", close, "", "- [ ] After"))).toEqual([
				"Before",
				"After",
			]);
		}
	});

	it("ends an HTML block left open inside an item where the item ends", () => {
		const plan = parsePlan(lines("- [ ] Profile", "  <pre>", "  - [ ] sample row", "- [ ] Optimise"));
		expect(plan.items.map((item) => item.title)).toEqual(["Profile", "Optimise"]);
		expect(plan.errors[0]?.reason).toContain("an HTML block opened on line 2 that is never closed");
		expect(plan.errors[0]?.reason).toContain("close it with </pre>");
	});

	it("does not let a lone tag on a lazy line end an item's text", () => {
		expect(titles(lines("- [ ] A", "<my-note>", "- [ ] B"))).toEqual(["A", "B"]);
	});

	it("does not close a fence with a line indented four columns past the fence's container", () => {
		const plan = parsePlan(
			lines("- [ ] Document", "  ```md", "  - [ ] row", "      ```", "  - [ ] still code", "  ```", "- [ ] Next"),
		);
		expect(plan.items.map((item) => item.title)).toEqual(["Document", "Next"]);
		expect(plan.items[0]?.criteria).toEqual([]);
		expect(plan.errors).toEqual([]);
	});

	it("reads a fence indented four columns into an item as text of the item, not as a fence", () => {
		expect(titles(lines("- [ ] A", "      ```", "- [ ] B"))).toEqual(["A", "B"]);
	});

	it("does not let an ordered item other than 1 interrupt a paragraph", () => {
		const text = lines(
			"The release has",
			"2. [ ] parts, which is prose",
			"",
			"3. [ ] After a blank line: an item",
			"Prose again",
			"1. [ ] One interrupts",
		);
		expect(titles(text)).toEqual(["After a blank line: an item", "One interrupts"]);
	});

	it("names sections after setext headings too", () => {
		const plan = parsePlan(lines("Phase 1", "=======", "", "- [ ] A", "", "Phase 2", "-------", "", "- [ ] B"));
		expect(plan.items.map((item) => item.section)).toEqual(["Phase 1", "Phase 2"]);
	});

	it("does not count checkboxes in a block quote", () => {
		expect(titles(lines("> - [ ] quoted", "> - [x] quoted too", "", "- [ ] Real"))).toEqual(["Real"]);
	});

	it("counts tabs to the next multiple of four columns", () => {
		const plan = parsePlan(lines("-\t[ ] Tabbed", "\t- [x] criterion under its text", "- [ ] Next"));
		expect(plan.items.map((item) => item.title)).toEqual(["Tabbed", "Next"]);
		expect(plan.items[0]?.criteria).toEqual([{ text: "criterion under its text", checked: true, line: 2 }]);
	});
});

describe("planView", () => {
	const text = lines(
		"---",
		"verify:",
		"  - npm test",
		"---",
		"- [x] One",
		"- [ ] Two",
		"- [/] Three",
		"- [~] Four",
		"- [ ] Five",
	);

	it("gives the policy counts, next titles (started first), the plan's name and its verify commands", () => {
		const view = planView(parsePlan(text), "billing", 2);
		expect(view).toMatchObject({
			source: "plan",
			name: "billing",
			counts: { total: 5, open: 3, completed: 1, cancelled: 0, blocked: 1 },
			next: ["Three", "Two"],
			verify: ["npm test"],
		});
		expect(view.fingerprint).toMatch(/^[0-9a-f]{16}$/);
	});

	it("changes the fingerprint when a status changes", () => {
		const before = planView(parsePlan("- [ ] A\n- [ ] B"), "p", 3).fingerprint;
		expect(planView(parsePlan("- [x] A\n- [ ] B"), "p", 3).fingerprint).not.toBe(before);
	});

	it("changes the fingerprint when items are reordered, since order is the plan's schedule", () => {
		const before = planView(parsePlan("- [ ] A\n- [ ] B"), "p", 3).fingerprint;
		expect(planView(parsePlan("- [ ] B\n- [ ] A"), "p", 3).fingerprint).not.toBe(before);
	});

	it("tells apart which of two same-titled items is done", () => {
		const first = planView(parsePlan("- [x] Run the tests\n- [ ] Run the tests"), "p", 3).fingerprint;
		const second = planView(parsePlan("- [ ] Run the tests\n- [x] Run the tests"), "p", 3).fingerprint;
		expect(first).not.toBe(second);
	});

	it("keeps the fingerprint when only whitespace, prose or criteria change", () => {
		const before = planView(parsePlan("- [ ] Write  docs\n  - [ ] crit"), "p", 3).fingerprint;
		const after = planView(parsePlan("Intro prose.\n\n- [ ] Write docs\n  - [x] crit"), "p", 3).fingerprint;
		expect(after).toBe(before);
	});

	it("changes the fingerprint when the verify commands change, so a changed gate runs again", () => {
		const before = planView(parsePlan("---\nverify: npm test\n---\n- [x] A"), "p", 3).fingerprint;
		const after = planView(parsePlan("---\nverify: [npm test, npm run e2e]\n---\n- [x] A"), "p", 3).fingerprint;
		expect(after).not.toBe(before);
	});

	it("has no next titles for an all-blocked plan", () => {
		expect(planView(parsePlan("- [~] a\n- [~] b"), "p", 3).next).toEqual([]);
	});
});

// ---------------------------------------------------------------- property

interface Block {
	lines: string[];
	/** Offsets (within `lines`) and titles of the items this block adds. */
	items: { offset: number; title: string }[];
	/** Offsets of checkbox lines a fence that is never closed hides (each one is reported). */
	hidden?: number[];
}

const title = fc
	.string({ unit: "grapheme", minLength: 1, maxLength: 20 })
	.map((text) => text.replace(/[\r\n]/g, " ").trim())
	.filter((text) => text !== "");
const mark = fc.constantFrom(" ", "x", "X", "~", "-", "/");
const plainText = fc.constantFrom(
	"Some prose.",
	"Note: [ ] is not a box here",
	"> - [ ] quoted",
	"<!-- html -->",
	"Done.",
);

/** A top-level item with optional criteria, plain sub-bullets and a fence indented under it. */
const itemBlock: fc.Arbitrary<Block> = fc
	.record({
		indent: fc.constantFrom("", " "),
		marker: fc.constantFrom("-", "*", "+", "1.", "2)", "10."),
		mark,
		title,
		trailing: fc.constantFrom("", "  ", "\t"),
		children: fc.array(
			fc.oneof(
				fc.record({ kind: fc.constant("criterion" as const), extra: fc.nat(4), mark, text: title }),
				fc.record({ kind: fc.constant("note" as const), extra: fc.nat(4), text: plainText }),
				fc.record({ kind: fc.constant("fence" as const), extra: fc.nat(2), text: title }),
				fc.constant({ kind: "blank" as const }),
			),
			{ maxLength: 4 },
		),
	})
	.map(({ indent, marker, mark: box, title: text, trailing, children }) => {
		const column = indent.length + marker.length + 1;
		const out = [`${indent}${marker} [${box}] ${text}${trailing}`];
		for (const child of children) {
			if (child.kind === "blank") {
				out.push("");
				continue;
			}
			const pad = " ".repeat(column + child.extra);
			if (child.kind === "criterion") out.push(`${pad}- [${child.mark}] ${child.text}`);
			else if (child.kind === "note") out.push(`${pad}- ${child.text}`);
			else out.push(`${pad}\`\`\`md`, `${pad}- [ ] ${child.text}`, `${pad}\`\`\``);
		}
		return { lines: out, items: [{ offset: 0, title: text }] };
	});

const fenceBlock = (closed: boolean): fc.Arbitrary<Block> =>
	fc
		.record({
			// Indented to an item's text, a fence would belong to the item above it.
			indent: fc.constantFrom("", " "),
			char: fc.constantFrom("`", "~"),
			length: fc.integer({ min: 3, max: 5 }),
			info: fc.constantFrom("", "md", "markdown title=x", " sh "),
			content: fc.array(
				fc.oneof(
					title.map((text) => `- [ ] ${text}`),
					title.map((text) => `1. [x] ${text}`),
					fc.constantFrom("# heading in code", "", "---", "    - [ ] indented"),
				),
				{ maxLength: 4 },
			),
		})
		.map(({ indent, char, length, info, content }) => {
			const other = char === "`" ? "~~~" : "```";
			const fence = char.repeat(length);
			const inner = [...content, other, `${fence}x`];
			if (length > 3) inner.push(char.repeat(length - 1));
			const out = [`${indent}${fence}${info}`, ...inner];
			if (closed) out.push(`${indent}${fence}`);
			const hidden = closed ? [] : out.flatMap((line, offset) => (/^ *(?:-|1\.) \[[ x]\] /.test(line) ? [offset] : []));
			return { lines: out, items: [], hidden };
		});

const commentBlock: fc.Arbitrary<Block> = fc
	.array(
		title.filter((text) => !text.includes("-->")).map((text) => `- [ ] ${text}`),
		{ maxLength: 3 },
	)
	.map((inner) => ({ lines: ["<!--", ...inner, "-->"], items: [] }));

const otherBlock: fc.Arbitrary<Block> = fc.oneof(
	commentBlock,
	fc
		.constantFrom("# Title", "## Phase 2 ##", "### Step", "", "***", "___", "- - -")
		.map((line) => ({ lines: [line], items: [] })),
	// A blank line after prose: `2) [ ] x` right under a paragraph would continue it.
	plainText.map((line) => ({ lines: [line, ""], items: [] })),
	title.map((text) => ({ lines: ["- A plain note", `  - [ ] ${text}`, `    - [x] ${text}`], items: [] })),
	title.map((text) => ({ lines: ["", `    - [ ] ${text}`, ""], items: [] })),
);

const document = fc.record({
	frontMatter: fc.constantFrom([], ["---", "name: Plan", "verify:", "  - npm test", "---"], ["---", "---"]),
	blocks: fc.array(fc.oneof({ weight: 3, arbitrary: itemBlock }, fenceBlock(true), otherBlock), { maxLength: 12 }),
	tail: fc.option(fenceBlock(false), { nil: null }),
	eol: fc.constantFrom("\n", "\r\n", "\r"),
});

describe("plan parser property", () => {
	it(`finds exactly the top-level checkbox lines outside fences, with their lines and titles, and reports those a fence never closed hides (${RUNS} runs)`, () => {
		fc.assert(
			fc.property(document, ({ frontMatter, blocks, tail, eol }) => {
				const all: string[] = [...frontMatter];
				const expected: { line: number; title: string }[] = [];
				const hidden: number[] = [];
				for (const block of tail ? [...blocks, tail] : blocks) {
					for (const item of block.items) expected.push({ line: all.length + item.offset + 1, title: item.title });
					for (const offset of block.hidden ?? []) hidden.push(all.length + offset + 1);
					all.push(...block.lines);
				}
				const plan = parsePlan(all.join(eol));
				expect(plan.items.map((item) => ({ line: item.line, title: item.title }))).toEqual(expected);
				expect(plan.counts.total).toBe(expected.length);
				expect(plan.errors.map((error) => error.line)).toEqual(hidden);
				for (const error of plan.errors) expect(error.reason).toContain("never closed");
			}),
			{ numRuns: RUNS },
		);
	});
});
