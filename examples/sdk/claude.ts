// boulder in a program built on the Claude Agent SDK: the agent works through
// its list (or a plan) until it is really done, and stops when it should.
//
//   node claude.ts "Work through the list." [PLAN.md]
//
// Ctrl-C aborts the run at once; boulder remembers it, so nothing nudges the
// session again until you write to it. `boulder why` in the project explains
// every decision.
import { query } from "@anthropic-ai/claude-agent-sdk";
import { boulderHooks } from "boulder-agent/sdk/claude";

const [prompt = "Work through the list.", plan] = process.argv.slice(2);
const cwd = process.cwd();
const controller = new AbortController();
process.once("SIGINT", () => controller.abort());

const run = query({
	prompt,
	options: {
		cwd,
		abortController: controller,
		permissionMode: "bypassPermissions",
		allowDangerouslySkipPermissions: true,
		hooks: boulderHooks({ cwd, signal: controller.signal, ...(plan ? { plan } : {}) }),
		// Optional: a `claude` of your own instead of the one the SDK ships.
		pathToClaudeCodeExecutable: process.env.CLAUDE_CODE_EXECUTABLE,
	},
});

try {
	for await (const message of run) {
		if (message.type === "result") {
			const result = message.subtype === "success" ? message.result : null;
			console.log(JSON.stringify({ session: message.session_id, result }));
		}
	}
} catch (error) {
	if (!controller.signal.aborted) throw error;
	console.log(JSON.stringify({ aborted: true }));
}
