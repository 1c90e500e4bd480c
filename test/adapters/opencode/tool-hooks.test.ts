import { describe, expect, it } from "vitest";
import { childSessionOf, filesOf } from "../../../src/adapters/opencode/tool-hooks.js";

describe("what OpenCode's tools say about orchestrate mode", () => {
	it("reads the files of a file tool: its filePath, or each file a patch names", () => {
		expect(filesOf({ filePath: "/p/src/a.ts", content: "x" })).toEqual(["/p/src/a.ts"]);
		expect(
			filesOf({
				patchText: "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** Add File: src/b.ts\n+z\n*** End Patch",
			}),
		).toEqual(["src/a.ts", "src/b.ts"]);
		expect(filesOf(null)).toEqual([]);
		expect(filesOf({ filePath: "" })).toEqual([]);
	});

	it("reads a task's child session from its metadata, else from the task_id its text names", () => {
		expect(childSessionOf({ metadata: { sessionId: "ses_1" }, output: "task_id: ses_2" })).toBe("ses_1");
		expect(childSessionOf({ output: "task_id: ses_2 (for resuming)\n<task_result>ok</task_result>" })).toBe("ses_2");
		expect(childSessionOf({ output: "no id here" })).toBeNull();
	});
});
