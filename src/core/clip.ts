/**
 * Text from a plan or a todo list, clipped to a size a person or a model can
 * use: a 4 MB plan item must not become a 4 MB nudge (a million tokens sent as
 * one message) or a 4 MB line of a dashboard. What is cut is said, with the
 * full length, so nothing looks whole that is not.
 *
 * Contract: pure; text within the limit is returned as it is.
 */

/** Characters of one title (a plan item, a todo, a plan's name) shown or sent: far more than a title needs. */
export const MAX_TITLE_CHARS = 1000;

/**
 * Characters of a plan item's title kept when the plan is read: what the
 * plan's fingerprint and every view start from, so a multi-MB item costs what
 * this costs (a longer title is still told apart by its length, which the cut
 * title names).
 */
export const MAX_PLAN_TITLE_CHARS = 16 * 1024;

export function clipTitle(text: string, max: number = MAX_TITLE_CHARS): string {
	if (text.length <= max) return text;
	// Never cut a surrogate pair in two.
	let end = max;
	const last = text.charCodeAt(end - 1);
	if (last >= 0xd800 && last <= 0xdbff) end--;
	return `${text.slice(0, end)}… (cut: ${text.length.toLocaleString("en-US")} characters in all)`;
}
