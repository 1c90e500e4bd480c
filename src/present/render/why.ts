/**
 * What `boulder why` prints: one line per decision, in plain words, local
 * time first. When the lines come from more than one session, each names its
 * session so they can be told apart.
 */
import type { DecisionRecord } from "../../core/decision-record.js";
import { formatWhen } from "../format-time.js";
import type { Style } from "../style.js";
import { type Explanation, explain, type Tone } from "../why-text.js";
import { sessionLabel } from "./progress.js";

export interface WhyLine {
	at: number;
	kind: DecisionRecord["kind"];
	reason: string;
	headline: string;
	text: string;
	harness: string | null;
	session: string | null;
	work: string | null;
}

export function whyLines(records: readonly DecisionRecord[], now: number): WhyLine[] {
	return records.map((record) => {
		const said: Explanation = explain(record, now);
		return {
			at: record.at,
			kind: record.kind,
			reason: record.reason,
			headline: said.headline,
			text: said.text,
			harness: record.harness,
			session: record.session,
			work: record.work,
		};
	});
}

const TONE: Record<Tone, keyof Style> = {
	skip: "yellow",
	go: "green",
	stop: "red",
	done: "cyan",
	event: "dim",
	problem: "red",
};

export function renderWhy(records: readonly DecisionRecord[], now: number, c: Style): string {
	if (records.length === 0) {
		return c.dim("No decisions yet. boulder logs one each time a session rolling a plan or a todo list goes idle.");
	}
	const sessions = new Set(records.map((record) => `${record.harness}\u0000${record.session}`));
	return records
		.map((record) => {
			const said = explain(record, now);
			const paint = c[TONE[said.tone]] as (text: string) => string;
			const who =
				sessions.size > 1 && record.harness && record.session
					? c.dim(`  [${sessionLabel({ harness: record.harness, sessionId: record.session })}]`)
					: "";
			return `${formatWhen(record.at, now)}  ${paint(said.headline)}: ${said.text}${who}`;
		})
		.join("\n");
}
