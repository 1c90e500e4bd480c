/** Hostile text in plans, names and ids reaches the terminal escaped, in every human-facing command. */
import { describe, expect, it } from "vitest";
import { sandbox } from "./helpers.js";

const TITLE = "Ship \x1b]0;pwned\x07 it \x1b[2J";

describe("control sequences from outside", () => {
	it("are shown escaped by start, status, why, log and plans, and kept exact in JSON", async () => {
		const box = await sandbox();
		await box.write("plan.md", `# ${TITLE}\n\n- [ ] first \x1b[8mhidden\n- [ ] second\n`);
		const outputs = [await box.run(["start", "plan.md"])];
		const engine = await box.engine();
		const ref = { harness: "claude-code", sessionId: "s\x1b]8;;http://evil\x07" };
		await engine.turnStarted(ref, "user");
		await engine.turnEnded(ref, { outcome: "end" });
		await engine.onIdle(ref, { lastAssistantText: "Done." });
		for (const args of [["status"], ["why"], ["log"], ["plans", "plan.md"], ["status", "--all"]]) {
			outputs.push(await box.run(args));
		}
		for (const output of outputs) {
			// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for raw control sequences
			expect(output.stdout + output.stderr).not.toMatch(/\x1b[\][](?!3[0-9]m|[12]m|22m|39m)/);
		}
		expect(outputs[0]?.stdout).toContain("\\x1b]0;pwned\\x07");
		const json = await box.run(["status", "--json"]);
		expect(JSON.parse(json.stdout).worktrees[0].works[0].name).toBe(TITLE.trim());
	});

	it("are escaped in commander's own errors, which repeat what was typed", async () => {
		const box = await sandbox();
		const wrong = await box.run(["st\x1b]0;x\x07atus"]);
		expect(wrong.code).toBe(2);
		expect(wrong.stderr).not.toContain("\x1b]");
	});
});
