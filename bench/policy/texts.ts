/**
 * What the simulated agents say at the end of a turn. Written as agents
 * really phrase things, not to suit any detector: some progress notes contain
 * words a naive phrase match takes for a question, and some real requests to
 * the user carry no question mark.
 */
import type { Rng } from "./prng.js";

export function fill(template: string, fields: Record<string, string | number>): string {
	return template.replace(/\{(\w+)\}/g, (_, name: string) => String(fields[name] ?? ""));
}

/** After finishing an item, with more to do. */
export const PROGRESS_NOTES = [
	"Done with {item}. Next up is {next}.",
	"{item} is in place and the tests pass. {next} comes next.",
	"Finished {item}. We should include {next} in the next pass.",
	"{item}: done. {left} items remain on the list.",
	"Implemented {item}; the build is green.",
	"I've wrapped up {item} and committed it.",
];

/** Ending a turn in the middle of an item that needs more work. */
export const PARTIAL_NOTES = [
	"Still on {item}: part of it works, the rest needs another pass.",
	"Made headway on {item}; two tests still fail.",
	"{item} is half done; continuing next.",
];

/** Saying the whole job is done (true or not). */
export const DONE_CLAIMS = [
	"All tasks are complete.",
	"Everything on the list is done.",
	"The work is finished: all items are implemented and tested.",
];

/** Working without visible list changes. */
export const SILENT_NOTES = [
	"Made good progress on {item}.",
	"Worked through {item} and the related tests.",
	"{item} is coming along; continuing from here.",
];

/** Trying and failing, again. */
export const STUCK_NOTES = [
	"Still working on {item}: the test keeps failing. Let me try another approach.",
	"The build fails again on {item}. I'll look into it further.",
	"{item} is not passing yet; investigating.",
];

/** Rearranging the plan instead of doing it. */
export const CHURN_NOTES = [
	"Reorganised the plan to make the next steps clearer.",
	"Refined the todo list; starting on {item} now.",
	"Split {item} into smaller steps.",
];

export const OUTSIDE_NEEDS = [
	"the production API key",
	"access to the staging cluster",
	"a decision from the product owner",
	"the vendor's sandbox credentials",
];

/** Reporting an item that needs someone outside the session. */
export const BLOCKED_NOTES = [
	"Everything else is done. {item} is blocked: it needs {need}.",
	"{item} can't be done from here; it needs {need}. The rest of the list is finished.",
];

/** Asking the user in plain text and waiting for the answer (the question tool is not used). */
export const PROSE_ASKS = [
	"The migration needs a decision: should I keep the old column or drop it?",
	"Which auth provider do you want me to use, GitHub or Google?",
	"I need the staging database URL to go on. Could you share it?",
	"Before I delete the legacy handlers, can you confirm nobody still calls them?",
	"Let me know whether the new endpoint should be public or behind auth.",
	"I need your input on the retry policy: fail fast, or back off for up to a minute?",
	"Do you want the changelog entry in this PR as well?",
	"Please run `docker compose logs app` and send me the output, so I can see why it crashes.",
	"I can't reach the payment sandbox from here. Please paste the API key and I'll finish the integration.",
	"Two options for the cache: in-memory or Redis. Your call.",
	"Shall I go ahead and rename the public API, even though it breaks callers?",
	"I'm waiting for your answer on the schema before I write the migration.",
];

/** The lead-in of a turn that ends in the question tool (the question itself is in the tool). */
export const TOOL_QUESTION_LEADS = [
	"I need a decision before going on.",
	"One thing to settle first.",
	"Asking about the schema before I continue.",
];

export const SELF_ANSWER = "No answer yet, so I'll go with the first option and carry on.";
export const WAITING_FOR_SUBAGENTS = "Started {count} subagents on the next items; waiting for their results.";
export const STILL_WAITING = "Still waiting on the subagents to finish.";
/** An orchestrator that checked a subagent's work, or gave up on one, and handed the item out again. */
export const SENT_BACK = "Checked the subagents' work: {count} item(s) are not done yet, so I handed them out again.";
/** An orchestrator that did an item itself. */
export const DID_IT_MYSELF = "I made the change for {item} myself and ran the tests.";
export const MERGED = "The subagents finished; I merged their work and ticked the items. {left} items left.";
export const RESTARTED = "Back after the restart; picking up where I left off.";
export const STATUS_REPLY = "Still open: {items}.";
export const JOB_REPORT = "The background test run finished; results are in the log.";
export const SUBAGENT_DONE = "Subagent report: my part is done.";

export function pickText(rng: Rng, pool: readonly string[], fields: Record<string, string | number> = {}): string {
	return fill(rng.pick(pool), fields);
}
