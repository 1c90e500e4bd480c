import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PLAN_PARSE_FORMAT, parsePlan } from "../../src/core/plan-parser.js";
import { FileStore } from "../../src/state/file-store.js";
import { planParseFile, readPlanParse, writePlanParse } from "../../src/state/plan-parse-cache.js";
import { tempDir } from "./helpers.js";

const PLAN =
	"---\nverify: npm test\nname: Ship\n---\n# Ship\n\n## Now\n\n- [x] One\n  - [ ] its test\n- [/] Two\n- [ ] Three\n";

const line = fc.oneof(
	fc
		.tuple(
			fc.constantFrom("", "  ", "    "),
			fc.constantFrom("-", "*", "1."),
			fc.constantFrom(" ", "x", "~", "-", "/", "?"),
		)
		.chain(([indent, bullet, mark]) =>
			fc.constantFrom("Parse it", "Ship `it`", "", "a **b**").map((text) => `${indent}${bullet} [${mark}] ${text}`),
		),
	fc.constantFrom("", "# Heading", "## Stage", "Some prose.", "```", "> - [ ] quoted", "<div>", "---"),
);

describe("the plan-parse cache", () => {
	it("gives back exactly what parsing gives, for the very text it was made from and no other", async () => {
		const root = await tempDir();
		const file = path.join(root, "cache.json");
		let kept = 0;
		await fc.assert(
			fc.asyncProperty(fc.array(line, { maxLength: 30 }), async (lines) => {
				const text = `${lines.join("\n")}\n`;
				const plan = parsePlan(text, "PLAN.md");
				await writePlanParse(file, text, plan);
				const read = readPlanParse(file, text, "PLAN.md");
				if (plan.errors.length > 0) return;
				kept++;
				expect(read).toEqual(plan);
				expect(readPlanParse(file, `${text} `, "PLAN.md")).toBeNull();
			}),
			{ numRuns: 150 },
		);
		// Most generated plans have no errors, so the cache was read back many times.
		expect(kept).toBeGreaterThan(30);
	});

	it("keeps no plan with errors, and misses on a file of another format, shape or kind", async () => {
		const root = await tempDir();
		const file = path.join(root, "cache.json");
		const broken = "- [ ]\n- [ ] Two\n";
		await writePlanParse(file, broken, parsePlan(broken));
		await expect(readFile(file)).rejects.toMatchObject({ code: "ENOENT" });
		await writePlanParse(file, PLAN, parsePlan(PLAN, "PLAN.md"));
		expect(readPlanParse(file, PLAN, "PLAN.md")).toEqual(parsePlan(PLAN, "PLAN.md"));
		const kept = JSON.parse(await readFile(file, "utf8"));
		const variants = [
			"{",
			"",
			JSON.stringify({ ...kept, format: PLAN_PARSE_FORMAT + 1 }),
			JSON.stringify({ ...kept, items: [{ ...kept.items[0], status: "done" }] }),
			JSON.stringify({ ...kept, extra: 1 }),
		];
		for (const variant of variants) {
			await writeFile(file, variant);
			expect(readPlanParse(file, PLAN, "PLAN.md")).toBeNull();
		}
		const elsewhere = path.join(root, "elsewhere.json");
		await writeFile(elsewhere, JSON.stringify(kept));
		const linked = path.join(root, "linked.json");
		await symlink(elsewhere, linked);
		expect(readPlanParse(linked, PLAN, "PLAN.md")).toBeNull();
	});

	it("lives under the user's state folder, one file per worktree and plan, never in the worktree", async () => {
		const root = await tempDir();
		const worktree = path.join(root, "repo");
		const stateHome = path.join(root, "state");
		await mkdir(worktree);
		const store = new FileStore(worktree, { stateHome });
		const plan = parsePlan(PLAN, "PLAN.md");
		await store.writePlanParse("PLAN.md", PLAN, plan);
		expect(await store.readPlanParse("PLAN.md", PLAN)).toEqual(plan);
		expect(await store.readPlanParse("OTHER.md", PLAN)).toBeNull();
		const file = planParseFile(stateHome, worktree, "PLAN.md");
		expect(path.relative(stateHome, file).startsWith("..")).toBe(false);
		expect(await readFile(file, "utf8")).toContain('"format"');
		expect(planParseFile(stateHome, path.join(root, "other"), "PLAN.md")).not.toBe(file);
	});
});
