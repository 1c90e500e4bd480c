/** The policies compared, in report order: boulder first, then the earlier ones, then the naive rule. */
import type { Policy, Truth } from "../model.js";
import { boulderPolicy } from "./boulder.js";
import { naivePolicy } from "./naive.js";
import { omoPolicy } from "./omo.js";
import { ralphPolicy } from "./ralph.js";
import { slimPolicy } from "./slim.js";
import { typeclawPolicy } from "./typeclaw.js";

export interface Contestant {
	name: string;
	make: (truth: () => Truth) => Policy;
	/** The reference section the model follows, and its main rules, for the report. */
	source: string;
	rules: string;
}

export const CONTESTANTS: readonly Contestant[] = [
	{
		name: "boulder",
		make: () => boulderPolicy(),
		source: "DESIGN.md, the decision on idle (src/core/policy.ts, src/core/turns.ts)",
		rules: "the core's `decide` and turn transitions with the default config; state persisted per session",
	},
	{
		name: "oh-my-opencode",
		make: () => omoPolicy(),
		source: "anchor-oh-my-opencode.md §2 (todo-continuation enforcer)",
		rules:
			"2 s countdown; cooldown 5 s × 2^failures, no retry timer; stagnation 3 counted only after injections; status churn is progress; turn-boundary pause after one answered nudge without status change; 3 s abort window; question tool detection; background and skip-agent checks; any session; in-memory",
	},
	{
		name: "oh-my-opencode-slim",
		make: () => slimPolicy(),
		source: "anchor-oh-my-opencode-slim.md §1 (the removed auto-continue hook)",
		rules:
			"switched on by the user; max 5 consecutive continuations, reset by any busy that is not its own; question phrases and a trailing `?`; 5 s suppression after an abort; 3 s cooldown; orchestrator only; global in-memory state",
	},
	{
		name: "typeclaw",
		make: () => typeclawPolicy(),
		source: "anchor-typeclaw.md §3 (decideContinuation and its wiring)",
		rules:
			"3 automatic turns, 25 000 tokens read as the last call's context size, 30 min per episode; stagnation 2 by hash, never reset; restart kick, subagent completion and compaction count as real user turns; durable abort block; persisted",
	},
	{
		name: "ralph-loop",
		make: () => ralphPolicy(),
		source: "harness-apis.md §1.8 (ralph-loop Stop hook)",
		rules:
			"re-sends the request at every Stop until `--max-iterations 20` or the exact `<promise>DONE</promise>`; no Stop on Esc, on API errors or for subagents; `/cancel-ralph` ends it",
	},
	{
		name: "naive",
		make: () => naivePolicy(),
		source: "none: the baseline",
		rules: "at every idle event of any session, continue while a todo is pending or in progress",
	},
];
