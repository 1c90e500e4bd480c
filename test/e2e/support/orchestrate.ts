/** The plan the orchestrate suites hand to an orchestrator: two items, each with its acceptance criterion. */
export const ORCHESTRATE_PLAN = `---
mode: orchestrate
---
# Greetings

- [ ] Item A: write the greeting
  - [ ] greeting.txt says hello
- [ ] Item B: write the farewell
  - [ ] farewell.txt says goodbye
`;
