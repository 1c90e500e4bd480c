// What boulder tells an orchestrator (a work in orchestrate mode). Static text with a few fields.

/** Rides on (or refuses) a file change the orchestrator made itself. */
export const ORCHESTRATOR_EDIT_TEXT = `[boulder · orchestrate mode] You are the orchestrator of the plan "{{plan}}": {{what}} {{files}} yourself.
Delegate the item instead: hand it to a subagent with the item, its acceptance criteria and the files involved, then check what it did.
Only the plan file itself is yours to edit (tick items there).`;

/** Rides on a subagent's result: never a new turn. */
export const DELEGATED_VERIFY_NOTE = `[boulder · orchestrate mode] A subagent returned{{session}}. The plan item in progress: "{{item}}".
{{criteria}}Before you tick it, check the work yourself: read the diff, run the tests or the command that proves it. A subagent's "done" is a claim, not a proof.
If it is unfinished, send it back (resume the same subagent with what is missing) rather than ticking it.`;

/** The nudge in orchestrate mode: delegate, in parallel where independent, resuming a subagent that already worked on an item. */
export const ORCHESTRATE_CONTINUATION_PROMPT = `[boulder · automatic continuation — not written by the user]

Work is still open: {{progress}}.
Next: {{next}}

You are the orchestrator: delegate these items to subagents now, several at once where they do not depend on each other, and do not edit the code yourself.
{{resume}}When a subagent returns, check its work (read the diff, run the tests) before you tick the item's checkbox in the plan file ([x] done, [~] blocked, [-] cancelled).
If an item cannot be done without someone else, mark it blocked with a one-line reason and go on with the rest.
If you need the user, ask them plainly and end your turn: boulder will wait for their answer.`;
