/**
 * The dashboard's pictures, drawn by hand as SVG (no library: a few paths
 * and marks weigh less than any chart package): a work's items done against
 * time with the nudges marked, a session's turns and decisions on lanes, and
 * the tokens its continuations spent against the budget. Each says in words
 * what it shows (`role="img"` with a label) and each mark carries its time
 * and reason in a `<title>`.
 */
import { formatStamp } from "../../present/format-time.js";
import type { ProgressPoint, TokenPoint, TurnMark } from "../view-types.js";
import { type Child, h, type VNode } from "./vnode.js";

const WIDTH = 240;
const PAD = 4;

function scaleX(points: readonly { at: number }[]): (at: number) => number {
	const first = points[0]?.at ?? 0;
	const last = points.at(-1)?.at ?? first;
	const span = Math.max(1, last - first);
	return (at) => round(PAD + ((at - first) / span) * (WIDTH - 2 * PAD));
}

/** `14:02`: a mark's time, short (the chart's label gives the date). */
function clock(at: number): string {
	return formatStamp(at).slice(-8, -3);
}

function round(value: number): number {
	return Math.round(value * 10) / 10;
}

function chart(label: string, height: number, ...children: Child[]): VNode {
	return h(
		"svg",
		{
			class: "chart",
			viewBox: `0 0 ${WIDTH} ${height}`,
			role: "img",
			"aria-label": label,
			preserveAspectRatio: "none",
			height,
		},
		h("title", {}, label),
		...children,
	);
}

/** Items done against time: a step line, a ring on each nudge. */
export function progressChart(name: string, history: readonly ProgressPoint[]): VNode | null {
	if (history.length < 2) return null;
	const height = 48;
	const total = Math.max(1, ...history.map((point) => point.total));
	const x = scaleX(history);
	const y = (done: number) => round(height - PAD - (done / total) * (height - 2 * PAD));
	let path = "";
	for (const [index, point] of history.entries()) {
		path += index === 0 ? `M${x(point.at)} ${y(point.done)}` : `H${x(point.at)} V${y(point.done)}`;
	}
	const nudges = history.filter((point) => point.nudge).length;
	const first = history[0] as ProgressPoint;
	const last = history.at(-1) as ProgressPoint;
	const label = `${name}: progress over time, ${first.done}/${first.total} done at ${formatStamp(first.at)}, ${last.done}/${last.total} now; ${nudges} nudge(s)`;
	return chart(
		label,
		height,
		h("line", { class: "axis", x1: PAD, x2: WIDTH - PAD, y1: y(0), y2: y(0) }),
		h("line", { class: "limit", x1: PAD, x2: WIDTH - PAD, y1: y(total), y2: y(total) }),
		h("path", { class: "line", d: path }),
		...history.map((point) =>
			h(
				"circle",
				{
					class: point.nudge ? "pt nudge" : "pt",
					cx: x(point.at),
					cy: y(point.done),
					r: point.nudge ? 2.6 : 1.4,
					"data-at": point.at,
					"data-done": point.done,
					"data-total": point.total,
				},
				h("title", {}, `${clock(point.at)}: ${point.done}/${point.total} done${point.nudge ? ", nudged" : ""}`),
			),
		),
	);
}

const LANES: readonly { lane: TurnMark["lane"]; words: string; symbol: string }[] = [
	{ lane: "user", words: "you", symbol: "■" },
	{ lane: "continuation", words: "continuation", symbol: "●" },
	{ lane: "decision", words: "decision", symbol: "◆" },
	{ lane: "system", words: "system", symbol: "▲" },
];

/** A session's turns and decisions on four lanes, oldest left. */
export function turnsChart(label: string, turns: readonly TurnMark[]): VNode | null {
	if (turns.length === 0) return null;
	const lane = 10;
	const height = LANES.length * lane + 2;
	const x = scaleX(turns);
	const marks = turns.map((turn) => {
		const row = LANES.findIndex((entry) => entry.lane === turn.lane);
		const cy = row * lane + lane / 2 + 1;
		const cx = turns.length === 1 ? WIDTH / 2 : x(turn.at);
		const title = h("title", {}, `${clock(turn.at)} ${turn.headline} (${turn.reason})`);
		const common = {
			class: `mark tone-${turn.tone}`,
			"data-lane": turn.lane,
			fill: "currentColor",
		};
		if (turn.lane === "user") return h("rect", { ...common, x: cx - 3, y: cy - 3, width: 6, height: 6 }, title);
		if (turn.lane === "continuation") return h("circle", { ...common, cx, cy, r: 3.2 }, title);
		if (turn.lane === "decision") {
			return h(
				"polygon",
				{ ...common, points: `${cx},${cy - 3.6} ${cx + 3.6},${cy} ${cx},${cy + 3.6} ${cx - 3.6},${cy}` },
				title,
			);
		}
		return h(
			"polygon",
			{ ...common, points: `${cx},${cy - 3.2} ${cx + 3.2},${cy + 2.8} ${cx - 3.2},${cy + 2.8}` },
			title,
		);
	});
	const counts = LANES.map((entry) => `${turns.filter((turn) => turn.lane === entry.lane).length} ${entry.words}`);
	return h(
		"figure",
		{ class: "figure" },
		chart(
			`${label}: ${turns.length} turns and decisions since ${formatStamp(turns[0]?.at ?? 0)} (${counts.join(", ")})`,
			height,
			...LANES.map((_, row) =>
				h("line", { class: "lane", x1: 0, x2: WIDTH, y1: row * lane + lane / 2 + 1, y2: row * lane + lane / 2 + 1 }),
			),
			...marks,
		),
		h(
			"figcaption",
			{ class: "legend dim" },
			...LANES.map((entry) => h("span", { class: `key key-${entry.lane}` }, `${entry.symbol} ${entry.words}`)),
		),
	);
}

/** Tokens the episode had spent at each decision, under the budget's line. */
export function tokensChart(label: string, points: readonly TokenPoint[], format: (n: number) => string): VNode | null {
	if (points.length < 2) return null;
	const height = 40;
	const top = Math.max(1, ...points.map((point) => Math.max(point.used, point.limit)));
	const x = scaleX(points);
	const y = (value: number) => round(height - PAD - (value / top) * (height - 2 * PAD));
	const line = (pick: (point: TokenPoint) => number) =>
		points.map((point, index) => `${index === 0 ? "M" : "L"}${x(point.at)} ${y(pick(point))}`).join(" ");
	const last = points.at(-1) as TokenPoint;
	return chart(
		`${label}: tokens spent by continuations, ${format(last.used)} of ${format(last.limit)} now`,
		height,
		h("path", { class: "limit", d: line((point) => point.limit) }),
		h("path", { class: "line tokens", d: line((point) => point.used) }),
	);
}
