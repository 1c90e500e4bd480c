/** What `boulder config` prints: each effective value and where it came from. */
import { formatDuration } from "../format-time.js";
import type { Style } from "../style.js";

export interface ConfigRow {
	key: string;
	value: unknown;
	/** "default" or the file that set it. */
	source: string;
}

/** The config as dotted keys, in schema order; arrays are values, not folders. */
export function configRows(config: Record<string, unknown>, sources: Record<string, string>): ConfigRow[] {
	const rows: ConfigRow[] = [];
	const walk = (value: unknown, prefix: string) => {
		if (value !== null && typeof value === "object" && !Array.isArray(value)) {
			for (const [key, inner] of Object.entries(value)) walk(inner, prefix ? `${prefix}.${key}` : key);
			return;
		}
		rows.push({ key: prefix, value, source: sources[prefix] ?? "default" });
	};
	walk(config, "");
	return rows;
}

/** How a value reads to a person: durations (keys ending in `Ms`) in words, the rest as JSON. */
export function configValueText(key: string, value: unknown): string {
	if (typeof value === "number" && /Ms$/.test(key)) return formatDuration(value);
	return JSON.stringify(value);
}

export function renderConfig(rows: readonly ConfigRow[], files: readonly string[], c: Style): string {
	const keyWidth = Math.max(...rows.map((row) => row.key.length)) + 2;
	const values = rows.map((row) => configValueText(row.key, row.value));
	const valueWidth = Math.min(40, Math.max(...values.map((value) => value.length))) + 2;
	const lines = rows.map((row, index) => {
		const source = row.source === "default" ? c.dim("default") : c.cyan(row.source);
		const value = values[index] ?? "";
		// A value wider than the column still keeps two spaces before its source.
		return `${row.key.padEnd(keyWidth)}${value}${" ".repeat(Math.max(2, valueWidth - value.length))}${source}`;
	});
	lines.push("");
	lines.push(
		c.dim(
			files.length === 0
				? "No config files: every value is the default. The project file wins over the user file."
				: `From: ${files.join(", ")} (the project file wins over the user file).`,
		),
	);
	return lines.join("\n");
}
