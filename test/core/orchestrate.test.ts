import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../src/core/default-config.js";
import { checkFileChange, delegatedItem, delegatedVerifyNote, itemKey } from "../../src/core/orchestrate.js";
import { parsePlan, planView } from "../../src/core/plan-parser.js";
import { continuationPrompt } from "../../src/core/prompts.js";

const orchestrator = {
	orchestrating: true,
	subagent: false,
	plan: { name: "Ship", path: "PLAN.md" },
	stateFolder: ".b",
};
const plan = parsePlan(
	"# Ship\n\n- [x] Write the parser\n- [ ] Wire the CLI\n  - [x] `boulder x` runs\n  - [ ] its help names every option\n- [/] Document it\n- [ ] Release\n",
);

describe("the orchestrator's own file changes", () => {
	it("warns by default, naming the file and telling it to delegate the item", () => {
		const verdict = checkFileChange({ tool: "Write", files: ["src/a.ts"] }, orchestrator, "warn");
		expect(verdict).toMatchObject({ kind: "warn", reason: "orchestrator-edit" });
		if (verdict.kind === "allow") throw new Error("not warned");
		expect(verdict.text).toContain("you changed `src/a.ts` yourself");
		expect(verdict.text).toContain("Delegate the item instead");
		expect(verdict.detail).toContain('"Ship" was warned about changing src/a.ts itself (Write)');
	});

	it("refuses when the config says deny, and says it refused", () => {
		const verdict = checkFileChange({ tool: "Edit", files: ["src/a.ts", "PLAN.md"] }, orchestrator, "deny");
		expect(verdict.kind).toBe("deny");
		if (verdict.kind === "allow") throw new Error("not refused");
		expect(verdict.text).toContain("boulder refused your change to `src/a.ts` yourself");
		expect(verdict.text).not.toContain("PLAN.md`");
	});

	it("lets the plan file and boulder's state through, whatever the config", () => {
		for (const files of [["PLAN.md"], ["./PLAN.md"], [".b/works.json"], [".b"], ["PLAN.md", ".b/x"]]) {
			expect(checkFileChange({ tool: "Write", files }, orchestrator, "deny")).toEqual({
				kind: "allow",
				reason: "exempt",
			});
		}
		expect(checkFileChange({ tool: "Write", files: [".bx/a"] }, orchestrator, "deny").kind).toBe("deny");
		expect(checkFileChange({ tool: "Write", files: ["docs/PLAN.md"] }, orchestrator, "deny").kind).toBe("deny");
	});

	it("never restricts subagents, sessions that are not orchestrating, or a config that turned it off", () => {
		const change = { tool: "Write", files: ["src/a.ts"] };
		expect(checkFileChange(change, { ...orchestrator, subagent: true }, "deny").kind).toBe("allow");
		expect(checkFileChange(change, { ...orchestrator, orchestrating: false }, "deny").kind).toBe("allow");
		expect(checkFileChange(change, { ...orchestrator, plan: null }, "deny").kind).toBe("allow");
		expect(checkFileChange(change, orchestrator, "off").kind).toBe("allow");
	});

	it("counts a change whose files it cannot see as the orchestrator's own", () => {
		expect(checkFileChange({ tool: "apply_patch", files: [] }, orchestrator, "deny").kind).toBe("deny");
	});
});

describe("the item a returning subagent worked on", () => {
	it("is the open item its description names, else the one in progress, else the first open one", () => {
		expect(delegatedItem(plan.items, "Please wire the CLI now")?.title).toBe("Wire the CLI");
		expect(delegatedItem(plan.items, "Something unrelated")?.title).toBe("Document it");
		expect(delegatedItem(plan.items, null)?.title).toBe("Document it");
		expect(delegatedItem(plan.items, "Write the parser again")?.title).toBe("Document it");
		const none = parsePlan("- [ ] A\n- [ ] B\n");
		expect(delegatedItem(none.items, null)?.title).toBe("A");
		expect(delegatedItem(parsePlan("- [x] A\n").items, "A")).toBeNull();
	});

	it("gets a note naming it, its acceptance criteria and the subagent, asking for a check before the tick", () => {
		const item = plan.items[1];
		if (!item) throw new Error("no item");
		const note = delegatedVerifyNote(item, "agent-7");
		expect(note).toContain('A subagent returned (subagent session agent-7). The plan item in progress: "Wire the CLI"');
		expect(note).toContain("(1 of 2 ticked)");
		expect(note).toContain("- [x] `boulder x` runs\n- [ ] its help names every option");
		expect(note).toContain("Before you tick it, check the work yourself");
		expect(delegatedVerifyNote({ ...item, criteria: [] }, null)).not.toContain("acceptance criteria");
	});
});

describe("the nudge in orchestrate mode", () => {
	it("asks to delegate the next items in parallel and names a subagent session that can be resumed", () => {
		const view = planView(plan, "Ship", 3);
		const text = continuationPrompt({
			...view,
			orchestrate: { subagents: { [itemKey({ title: "Document it" })]: "ses_doc" } },
		});
		expect(text).toContain("delegate these items to subagents now, several at once");
		expect(text).toContain('"Document it" was already worked on by subagent session ses_doc: resume that session');
		expect(text).not.toContain('Wire the CLI" was already');
		expect(continuationPrompt(view)).not.toContain("subagent");
	});
});

describe("config", () => {
	it("warns by default", () => {
		expect(DEFAULT_CONFIG.orchestrate.edits).toBe("warn");
	});
});
