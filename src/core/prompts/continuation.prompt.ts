// The nudge boulder appends as a new message when work is still open.
// Static text with a few fields; no time or random value, so prompt caches hold.
export const CONTINUATION_PROMPT = `[boulder · automatic continuation — not written by the user]

Work is still open: {{progress}}.
Next: {{next}}

Carry on with the next open item now; there is no need to ask for permission or to summarise first.
As each item is finished, mark it done in your list{{planHint}} straight away.
Check your work before you mark it: run the tests or the command that proves it, rather than assuming it landed.
If an item cannot be done without someone else (an answer, an access, a decision), mark it blocked — or cancelled — with a one-line reason, and go on with the rest.
If you need the user, ask them plainly and end your turn: boulder will wait for their answer.`;
