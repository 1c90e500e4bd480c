// What boulder tells an agent whose list stood still while it changed files. Static text with a few fields.

/** Rides on a tool result when the agent works from its own todo list. */
export const HYGIENE_TODOS_REMINDER = `[boulder · todo list] You have changed files {{edits}} since your todo list last changed, and it still shows {{items}}.
Update it now: mark what you finished as completed and the item you are on as in progress, so the list says where the work stands. Then carry on.`;

/** Rides on a tool result when the agent works through a plan. */
export const HYGIENE_PLAN_REMINDER = `[boulder · plan] You have changed files {{edits}} since the plan "{{plan}}"{{where}} last changed, and it still shows {{items}}.
Update it now: tick what you finished ([x]) and mark the item you are on ([/]), so the plan says where the work stands. Then carry on.`;
