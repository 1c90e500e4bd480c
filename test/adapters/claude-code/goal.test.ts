import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { activeGoal, goalOfLines } from "../../../src/adapters/claude-code/goal.js";
import { tempDir } from "./helpers.js";

const status = (met: boolean, extra: Record<string, unknown> = {}) =>
	JSON.stringify({
		type: "attachment",
		attachment: { type: "goal_status", met, condition: "Finish A and B", ...extra },
	});
const user = JSON.stringify({ type: "user", message: { role: "user", content: "Go." } });
const clear = JSON.stringify({
	type: "system",
	subtype: "local_command",
	commandRun: { command: "goal", args: "clear" },
});

describe("Claude Code's /goal, read from the transcript (2.1.332's goal_status lines)", () => {
	it("is active from the line that sets it, and while the judge finds it unmet", () => {
		expect(goalOfLines([status(false, { sentinel: true }), user])).toBe("Finish A and B");
		expect(goalOfLines([status(false, { sentinel: true }), user, status(false, { reason: "B is open" })])).toBe(
			"Finish A and B",
		);
	});

	it("ends when the judge finds it met, or the user clears it; there is none without a line", () => {
		expect(goalOfLines([status(false), status(true, { reason: "done" })])).toBeNull();
		expect(goalOfLines([status(false), clear])).toBeNull();
		expect(goalOfLines([user, '{"type":"attachment","attachment":{"type":"goal_st'])).toBeNull();
	});

	it("reads only the file's end, skipping the line cut there", async () => {
		const file = path.join(await tempDir("boulder-goal-"), "t.jsonl");
		await writeFile(
			file,
			[status(false), user.repeat(1), `${"x".repeat(100)}`, status(false, { sentinel: true })].join("\n"),
		);
		expect(await activeGoal(file)).toBe("Finish A and B");
		await writeFile(file, [status(false), "y".repeat(5000)].join("\n"));
		expect(await activeGoal(file, 1000)).toBeNull();
	});
});
