/**
 * Does the agent's last message ask the user to decide? Conservative on
 * purpose: only the closing paragraph counts, code is ignored, and it must
 * either end in a question addressed to the user or explicitly ask for a
 * choice or confirmation. Missing a question costs one nudge that the
 * stagnation limit bounds; inventing one only lets the agent stop.
 */

const ADDRESSED = /\b(you|your|yours|should i|shall i|do i|can i|may i|would it|which|whether|prefer|want|ok|okay)\b/i;
export const EXPLICIT_ASK =
	/\b(let me know|please (confirm|choose|decide|advise|tell me|reply|answer|run|paste|send|share|provide|upload|give me|grant|approve|restart|install|log in|sign in)|send me|waiting for your|awaiting your|need (your|you to)|your call)\b/i;
/**
 * What every match of `EXPLICIT_ASK` holds, in lower case. A hook is a process per Stop, so the pattern is
 * compiled anew each time (about 0.2 ms); a paragraph with none of these cannot match it.
 */
const ASK_WORDS = ["let me know", "please", "send me", "waiting for your", "awaiting your", "need", "your call"];

/** Could `EXPLICIT_ASK` match `text`? False only where it cannot. */
export function mayAskExplicitly(text: string): boolean {
	const lower = text.toLowerCase();
	return ASK_WORDS.some((words) => lower.includes(words));
}

export function closingParagraph(text: string): string {
	const withoutCode = text.replace(/```[\s\S]*?(```|$)/g, " ").replace(/`[^`\n]*`/g, "code");
	const paragraphs = withoutCode
		.split(/\n\s*\n/)
		.map((paragraph) => paragraph.trim())
		.filter((paragraph) => paragraph !== "");
	return paragraphs.at(-1) ?? "";
}

export function detectsQuestion(text: string): boolean {
	const closing = closingParagraph(text);
	if (closing === "") return false;
	if (mayAskExplicitly(closing) && EXPLICIT_ASK.test(closing)) return true;
	const lastLine = closing.split("\n").at(-1)?.trim() ?? "";
	const unformatted = lastLine.replace(/[*_~>\s]+$/g, "").replace(/^[-*>\s]+/, "");
	if (!unformatted.endsWith("?")) return false;
	const sentences = unformatted.split(/(?<=[.!?])\s+/);
	const question = sentences.at(-1) ?? unformatted;
	return ADDRESSED.test(question);
}
