/**
 * The chart: completion on finishable work against wasted nudges per run, one
 * labelled point per policy. Written by hand (no chart library); coordinates
 * are rounded so the same results give the same bytes.
 */
import type { Summary } from "./summary.js";

const WIDTH = 820;
const HEIGHT = 540;
const PLOT = { left: 90, right: 640, top: 80, bottom: 450 };
const X_TICKS = [0, 1, 3, 10, 30, 100, 300, 1000];

export interface ChartInput {
	summaries: readonly Summary[];
	subject: string;
	profiles: number;
	seeds: number;
}

export function renderSvg({ summaries, subject, profiles, seeds }: ChartInput): string {
	const most = Math.max(1, ...summaries.map((s) => s.wastedPerRun));
	const top = X_TICKS.find((tick) => tick >= most) ?? most;
	const xOf = (wasted: number) => PLOT.left + (Math.log10(1 + wasted) / Math.log10(1 + top)) * (PLOT.right - PLOT.left);
	const yOf = (completion: number) => PLOT.bottom - completion * (PLOT.bottom - PLOT.top);
	const parts: string[] = [];
	parts.push(
		`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif">`,
		`<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
		`<text x="${WIDTH / 2}" y="30" text-anchor="middle" font-size="18" font-weight="bold">Does it finish the work, and does it stop when it should?</text>`,
		`<text x="${WIDTH / 2}" y="52" text-anchor="middle" font-size="13" fill="#444">Completion against wasted nudges, per policy: ${profiles} simulated session profiles × ${seeds} seeds. Up and left is better.</text>`,
	);
	for (let step = 0; step <= 5; step++) {
		const value = step / 5;
		const y = yOf(value);
		parts.push(
			`<line x1="${PLOT.left}" y1="${r(y)}" x2="${PLOT.right}" y2="${r(y)}" stroke="#e3e3e3"/>`,
			`<text x="${PLOT.left - 8}" y="${r(y + 4)}" text-anchor="end" font-size="12">${Math.round(value * 100)}%</text>`,
		);
	}
	for (const tick of X_TICKS.filter((value) => value <= top)) {
		const x = r(xOf(tick));
		parts.push(
			`<line x1="${x}" y1="${PLOT.top}" x2="${x}" y2="${PLOT.bottom}" stroke="#e3e3e3"/>`,
			`<text x="${x}" y="${PLOT.bottom + 18}" text-anchor="middle" font-size="12">${tick}</text>`,
		);
	}
	parts.push(
		`<rect x="${PLOT.left}" y="${PLOT.top}" width="${PLOT.right - PLOT.left}" height="${PLOT.bottom - PLOT.top}" fill="none" stroke="#888"/>`,
		`<text x="${(PLOT.left + PLOT.right) / 2}" y="${PLOT.bottom + 44}" text-anchor="middle" font-size="13">Wasted nudges per run (nudges followed by no progress; log scale)</text>`,
		`<text transform="translate(28 ${(PLOT.top + PLOT.bottom) / 2}) rotate(-90)" text-anchor="middle" font-size="13">Completion rate on finishable work</text>`,
	);
	const points = summaries
		.map((s) => ({ s, x: xOf(s.wastedPerRun), y: yOf(s.completion) }))
		.sort((a, b) => a.y - b.y || a.x - b.x);
	const placed: { left: number; right: number; y: number }[] = [];
	for (const point of points) {
		const mine = point.s.policy === subject;
		const label = `${point.s.policy} (score ${point.s.score.toFixed(0)}, ${point.s.violationsPerRun.toFixed(2)} violations/run)`;
		const width = label.length * 6.6;
		// Labels that would run off the right edge go to the left of their point.
		const side = point.x + 16 + width > WIDTH - 8 ? -1 : 1;
		const left = side > 0 ? point.x + 16 : point.x - 16 - width;
		let labelY = point.y + 4;
		const clashes = () =>
			placed.some((box) => Math.abs(box.y - labelY) < 15 && box.left < left + width && left < box.right);
		while (clashes()) labelY += 15;
		placed.push({ left, right: left + width, y: labelY });
		parts.push(
			`<circle cx="${r(point.x)}" cy="${r(point.y)}" r="${mine ? 8 : 6}" fill="${mine ? "#d9480f" : "#1c7ed6"}" stroke="#222" stroke-width="1"/>`,
			`<line x1="${r(point.x + 8 * side)}" y1="${r(point.y)}" x2="${r(point.x + 14 * side)}" y2="${r(labelY - 4)}" stroke="#999"/>`,
			`<text x="${r(point.x + 16 * side)}" y="${r(labelY)}" font-size="12"${side < 0 ? ' text-anchor="end"' : ""}${mine ? ' font-weight="bold"' : ""}>${escapeXml(label)}</text>`,
		);
	}
	parts.push(
		`<text x="${PLOT.left}" y="${HEIGHT - 26}" font-size="11" fill="#666">Each point: one policy over all runs. Completion counts the profiles whose work can be finished;</text>`,
		`<text x="${PLOT.left}" y="${HEIGHT - 12}" font-size="11" fill="#666">waste counts every profile. The table, the per-profile breakdown and the method are in policy.md.</text>`,
		"</svg>",
	);
	return `${parts.join("\n")}\n`;
}

function r(value: number): string {
	return value.toFixed(1);
}

function escapeXml(text: string): string {
	return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
