// The nudge boulder appends when every item is checked off but a verify command fails.
export const VERIFY_FAILED_PROMPT = `[boulder · automatic continuation — not written by the user]

Every item of {{name}} is marked done, but its verification does not pass yet.
Command: {{command}}
Exit: {{exit}}
Output (trimmed):
\`\`\`
{{output}}
\`\`\`

Find the cause and fix it, then run the command yourself to confirm it passes.
If it cannot pass without someone else, reopen the item it depends on and mark it blocked with a one-line reason.`;
