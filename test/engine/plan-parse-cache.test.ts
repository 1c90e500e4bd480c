import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Config } from "../../src/core/config.js";
import { parsePlan } from "../../src/core/plan-parser.js";
import { filePlans } from "../../src/engine/plan-files.js";
import { readWorkContext } from "../../src/engine/work-context.js";
import { startWork } from "../../src/engine/works-ops.js";
import { FileStore } from "../../src/state/file-store.js";
import { planParseFile } from "../../src/state/plan-parse-cache.js";
import { clock, main, tempWorktree, writePlan } from "./helpers.js";

const PLAN = "# Ship\n\n- [x] Parse the input\n- [ ] Wire the CLI\n- [ ] Release\n";

async function planned() {
	const worktree = await tempWorktree();
	await writePlan(worktree, "PLAN.md", PLAN);
	const stateHome = `${worktree}.state`;
	const store = new FileStore(worktree, { clock, stateHome });
	const plans = { read: async (w: string, p: string) => readFile(path.join(w, p), "utf8") };
	await startWork({ store, clock, plans }, { planPath: "PLAN.md", cwd: worktree, session: main });
	const deps = { store, config: Config.parse({}), clock, plans: filePlans };
	return { worktree, stateHome, store, deps };
}

describe("a plan read for a session", () => {
	it("is parsed once per text: the next read takes the kept parse, a changed plan is parsed again", async () => {
		const { worktree, stateHome, store, deps } = await planned();
		const first = await readWorkContext(deps, main);
		expect(first.view?.counts.open).toBe(2);
		const file = planParseFile(stateHome, worktree, "PLAN.md");
		// A parse kept for this very text is what the next read uses: a forged one shows through.
		const forged = parsePlan(PLAN.replaceAll("- [ ]", "- [x]"), "PLAN.md");
		await store.writePlanParse("PLAN.md", PLAN, forged);
		expect(JSON.parse(await readFile(file, "utf8")).text).toBe(PLAN);
		expect((await readWorkContext(deps, main)).view?.counts.open).toBe(0);
		// The plan changes: its text is not the kept one's, so it is parsed, and that parse is kept.
		await writePlan(worktree, "PLAN.md", PLAN.replace("- [ ] Wire", "- [x] Wire"));
		expect((await readWorkContext(deps, main)).view?.counts.open).toBe(1);
		expect(JSON.parse(await readFile(file, "utf8")).text).toContain("- [x] Wire");
	});
});
