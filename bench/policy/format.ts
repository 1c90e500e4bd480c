/**
 * Number formats and table layouts shared by the printed table and the
 * Markdown report. Fixed decimals everywhere, so the same results always give
 * the same bytes.
 */
export function pct(value: number): string {
	return `${(value * 100).toFixed(0)}%`;
}

export function num(value: number, digits = 2): string {
	return value.toFixed(digits);
}

/** Tokens in thousands (39.8k), or in millions from a million on (33.2M). */
export function tokenCount(value: number): string {
	if (value >= 999_950) return `${(value / 1_000_000).toFixed(1)}M`;
	return `${(value / 1000).toFixed(1)}k`;
}

/** Figures align right; `textColumns` (by index) hold words and align left, as the first column does. */
export function markdownTable(
	header: readonly string[],
	rows: readonly (readonly string[])[],
	textColumns: readonly number[] = [],
): string {
	const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
	const left = (index: number) => index === 0 || textColumns.includes(index);
	const rule = `|${header.map((_, index) => (left(index) ? " --- " : " ---: ")).join("|")}|`;
	return [line(header), rule, ...rows.map(line)].join("\n");
}

export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
	const widths = header.map((cell, index) => Math.max(cell.length, ...rows.map((row) => (row[index] ?? "").length)));
	const line = (cells: readonly string[]) =>
		cells
			.map((cell, index) => (index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0)))
			.join("  ");
	return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}
