// boulder around the Codex SDK, which has no hooks: `runUntilDone` runs the
// prompt, asks boulder after each turn, and runs boulder's nudge as the next
// turn until the list (or plan) is really done, or it should stop.
//
//   node codex.ts "Work through the plan." [PLAN.md]
//
// Ctrl-C aborts the run at once; boulder remembers it. `boulder why` in the
// project explains every decision.
import { Codex } from "@openai/codex-sdk";
import { runUntilDone } from "boulder-agent/sdk/codex";

const [prompt = "Work through the plan.", plan] = process.argv.slice(2);
const cwd = process.cwd();
const controller = new AbortController();
process.once("SIGINT", () => controller.abort());

// Optional: a `codex` of your own instead of the one the SDK ships.
const codex = new Codex({ codexPathOverride: process.env.CODEX_EXECUTABLE });
const thread = codex.startThread({
	workingDirectory: cwd,
	sandboxMode: "danger-full-access",
	approvalPolicy: "never",
	skipGitRepoCheck: true,
});

const result = await runUntilDone(thread, prompt, {
	cwd,
	signal: controller.signal,
	...(plan ? { plan } : {}),
	onDecision: (decision) => console.error(`boulder: ${decision.kind} (${decision.reason}) ${decision.detail}`),
});
console.log(
	JSON.stringify({
		thread: result.threadId,
		turns: result.turns,
		stopped: result.stopped,
		decisions: result.decisions.map((decision) => `${decision.kind}:${decision.reason}`),
		finalResponse: result.finalResponse,
	}),
);
