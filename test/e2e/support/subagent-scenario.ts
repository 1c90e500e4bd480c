/**
 * The subagent scenario both Claude Code suites run, through the installed
 * hooks (`claude-code.test.ts`) and through the Agent SDK
 * (`sdk-claude.test.ts`): two todos, item A handed to a subagent (Claude
 * Code runs it in the background), both ticked, then the agent stops. Each
 * suite starts its own harness on it and adds the checks only it makes.
 */

import { expect } from "vitest";
import {
	type AnthropicServer,
	isSubagentRequest,
	isTaskNotificationTurn,
	type RecordedRequest,
	type ReplyStep,
	type Scenario,
	stringsIn,
} from "./anthropic-server.js";
import { type DecisionRecord, NUDGE } from "./suite.js";
import { claudeTodoWrite, statusesAt } from "./todo-steps.js";

/** The user's prompt the scenario answers. */
export const SUBAGENT_PROMPT = "Do both items; hand item A to a subagent.";

export interface ServedSubagentScenario {
	server: AnthropicServer;
	/** The requests that took a step so far: the agent's own turns. */
	turns: () => number;
}

/**
 * Serves the scenario with the suite's `serve`. Subagent requests and the
 * harness's turn that brings the subagent's end (`isTaskNotificationTurn`,
 * when the subagent ends after the parent's turn) are answered apart and take
 * no step, so an extra step can only be a turn boulder started.
 * `subagentAfter` holds the subagent's answer back until the promise it makes
 * settles.
 */
export async function serveSubagentScenario(
	serve: (scenario: Scenario) => Promise<AnthropicServer>,
	subagentAfter?: () => Promise<unknown>,
): Promise<ServedSubagentScenario> {
	let agentTurn = 0;
	const steps: ReplyStep[] = [
		claudeTodoWrite(statusesAt(0, 2)),
		{
			toolUses: [
				{
					name: "Agent",
					input: { description: "Do item A", prompt: "Do item A.", subagent_type: "general-purpose" },
				},
			],
		},
		claudeTodoWrite(statusesAt(2, 2)),
		say("Both items are done."),
	];
	const server = await serve((turn) => {
		if (isSubagentRequest(turn.request)) {
			return { ...say("Subagent: item A is done."), ...(subagentAfter ? { after: subagentAfter() } : {}) };
		}
		if (isTaskNotificationTurn(turn.request)) return say("The subagent finished item A.");
		return steps[agentTurn++] ?? say("Nothing more.");
	});
	return { server, turns: () => agentTurn };
}

/**
 * The subagent ran once and no request of it carried a nudge, the agent took
 * exactly its four turns, and boulder let the subagent stop as one that owns
 * no continuation (`log`: the project's decision log after the run).
 */
export function expectSubagentRanUnnudged(server: AnthropicServer, turns: number, log: DecisionRecord[]): void {
	const subagent = server.mainRequests().filter(isSubagentRequest);
	expect(subagent).toHaveLength(1);
	expect(subagent.some(carriesNudge)).toBe(false);
	expect(turns).toBe(4);
	expect(log).toContainEqual(
		expect.objectContaining({ kind: "skip", reason: "not-eligible", scope: null, harness: "claude-code" }),
	);
}

/** Whether a boulder nudge is anywhere in the request (history and system prompt included). */
export function carriesNudge(request: RecordedRequest): boolean {
	return stringsIn(request.body).some((text) => text.includes(NUDGE));
}

function say(text: string): ReplyStep {
	return { text };
}
