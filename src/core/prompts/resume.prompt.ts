// Context for a session that comes back to unfinished work (resumed, compacted, restarted).
// Not a nudge: it rides on the session's start or on the user's own next message. Static text with a few fields.
export const RESUME_CONTEXT = `[boulder · where the work stands — context, not a new instruction]

This session {{how}} with work unfinished: {{progress}} in {{name}}.
Open items:
{{open}}
Next: {{next}}
{{resume}}When you go on with this work, pick up at the next open item rather than starting over: what is ticked is done.
Follow the user's latest request first; this note only tells you where things were left.`;

/** In orchestrate mode, when an open item already has a subagent session. */
export const RESUME_ORCHESTRATOR_RESUME =
	"You are the orchestrator: resume the subagent session named beside an item (it keeps its context) rather than starting a new one.\n";

/** In orchestrate mode, when no open item has one yet. */
export const RESUME_ORCHESTRATOR_DELEGATE =
	"You are the orchestrator: delegate the open items to subagents and check their work before ticking them.\n";
