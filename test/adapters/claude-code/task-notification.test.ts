import { describe, expect, it } from "vitest";
import { subagentNotificationOf } from "../../../src/adapters/command-hook/task-notification.js";

// The prompt Claude Code 2.1.332 submits when a background subagent ends (seen).
const notification = (summary: string, status = "completed") =>
	[
		"<task-notification>",
		"<task-id>aebfa248f91119b44</task-id>",
		"<tool-use-id>toolu_0635e79f4d7a31577af84aed</tool-use-id>",
		"<output-file>/tmp/claude-0/project/session/tasks/aebfa248f91119b44.output</output-file>",
		`<status>${status}</status>`,
		`<summary>${summary}</summary>`,
		"<result>Subagent: done.</result>",
		"</task-notification>",
	].join("\n");

describe("a background subagent's <task-notification> (2.1.332)", () => {
	it("names the subagent and the Agent call's description", () => {
		expect(subagentNotificationOf(notification('Agent "Item A: write the greeting" finished'))).toEqual({
			agentId: "aebfa248f91119b44",
			description: "Item A: write the greeting",
			status: "completed",
		});
		expect(subagentNotificationOf(notification('Agent "Item A" failed', "failed"))?.status).toBe("failed");
	});

	it("is nothing for a background shell's notification or any other prompt", () => {
		expect(subagentNotificationOf(notification('Background command "npm test" completed'))).toBeNull();
		expect(subagentNotificationOf("What is a <task-notification>?")).toBeNull();
		expect(subagentNotificationOf("<task-notification>\n<task-id>a1</task-id>\n</task-notification>")).toBeNull();
		expect(subagentNotificationOf(null)).toBeNull();
	});
});
