/** What `boulder log` prints: the decision log as it is, one line per record, newest last. */
import type { DecisionRecord } from "../../core/decision-record.js";
import { formatStamp } from "../format-time.js";
import type { Style } from "../style.js";

const KIND_COLOR: Record<DecisionRecord["kind"], keyof Style> = {
	inject: "green",
	verify: "cyan",
	complete: "cyan",
	skip: "yellow",
	event: "dim",
};

export function renderLogLine(record: DecisionRecord, c: Style): string {
	const paint = c[KIND_COLOR[record.kind]] as (text: string) => string;
	const who = record.session ? `${record.harness ?? "?"}:${record.session}` : "-";
	const work = record.work ? ` ${c.dim(`work=${record.work}`)}` : "";
	return `${c.dim(formatStamp(record.at))}  ${paint(record.kind.padEnd(8))} ${record.reason.padEnd(16)} ${who}${work}  ${record.detail}`;
}

/** `--json`: one record per line (JSON Lines), as stored. */
export function jsonLogLine(record: DecisionRecord): string {
	return JSON.stringify(record);
}
